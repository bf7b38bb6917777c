#!/bin/sh
# A private OpenSSH server on 127.0.0.1 for plugin-aio's ZStack case that sends a host script with ZStack's own key
# (HostShell's fallback for a host without a stored password). Usage (as root):
#   loopback-sshd.sh start <dir> <port> <authorized public key>   -> prints the sshd's pid once it listens
#   loopback-sshd.sh stop <dir>
# sshd comes from the system (/usr/sbin/sshd), else from Debian's openssh-server package fetched with apt-get download
# and unpacked under <dir> (nothing installed). It runs in its own mount namespace, where /etc/passwd has the
# privilege-separation user sshd and /run holds /run/sshd (the host's /run entries linked back, so virsh reaches the
# system libvirtd): nothing on the machine changes. Public-key login as root only; its log: <dir>/sshd.log.
set -eu
cmd=$1; dir=$2
case "$cmd" in
  stop)
    [ -f "$dir/sshd.pid" ] && kill "$(cat "$dir/sshd.pid")" 2>/dev/null || true
    exit 0 ;;
  start) port=$3; key=$4 ;;
  *) echo "usage: $0 start <dir> <port> <key> | stop <dir>" >&2; exit 2 ;;
esac
mkdir -p "$dir/realrun"
sshd=/usr/sbin/sshd
if [ ! -x "$sshd" ]; then
  sshd="$dir/root/usr/sbin/sshd"
  if [ ! -x "$sshd" ]; then
    (cd "$dir" && apt-get download openssh-server >/dev/null 2>&1 && dpkg -x openssh-server_*.deb root) || {
      echo "no sshd: /usr/sbin/sshd is missing and apt-get download openssh-server failed" >&2; exit 3; }
  fi
fi
[ -f "$dir/hostkey" ] || ssh-keygen -q -t ed25519 -N '' -f "$dir/hostkey" >/dev/null
printf '%s\n' "$key" > "$dir/authorized_keys"
{ cat /etc/passwd; getent passwd sshd >/dev/null || echo 'sshd:x:4999:65534::/run/sshd:/usr/sbin/nologin'; } > "$dir/passwd"
cat > "$dir/sshd_config" <<CONF
ListenAddress 127.0.0.1
Port $port
HostKey $dir/hostkey
PidFile $dir/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
CONF
rm -f "$dir/sshd.pid"
unshare -m sh -c "
mount --make-rprivate /
mount --bind /run '$dir/realrun'
mount -t tmpfs tmpfs /run
mkdir -p /run/sshd
for x in '$dir'/realrun/*; do ln -s \"\$x\" /run/\$(basename \"\$x\") 2>/dev/null || true; done
mount --bind '$dir/passwd' /etc/passwd
exec '$sshd' -D -e -f '$dir/sshd_config'
" > "$dir/sshd.log" 2>&1 &
i=0
while [ $i -lt 50 ]; do
  if grep -q "Server listening" "$dir/sshd.log" 2>/dev/null && [ -s "$dir/sshd.pid" ]; then cat "$dir/sshd.pid"; exit 0; fi
  sleep 0.1; i=$((i + 1))
done
echo "sshd did not start: $(cat "$dir/sshd.log")" >&2
exit 1
