package org.zstack.aio.plugin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A host as conf/aio/host-probe.sh sees it, made of files: a /proc tree (sysctls, mounts, its own status), an
 * /etc/os-release, and the tools it calls (uname, qemu-img, ldd, perl, libvirtd) as small scripts first on PATH. The
 * real probe runs against it and prints what such a host prints; everything else (dd, readlink, awk, sed) is the
 * machine's own. One storage path is a real directory, mounted in the fake /proc/mounts as the scenario says.
 */
final class ProbedHost {

    private static final Path SCRIPT = Path.of("..", "..", "conf", "aio", "host-probe.sh");

    private final Path root;
    final Path storage;
    String release = "6.8.0-45-generic";
    String ioUringDisabled = "0";
    String qemu = "8.2.2";
    /** what {@code qemu-img bench -i io_uring} prints on stderr, and its exit status */
    String ioUringBench = "";
    int ioUringExit = 0;
    String nativeBench = "";
    int nativeExit = 0;
    String liburing = "liburing.so.2";
    long aioMaxNr = 65536;
    long aioNr = 1024;
    String uringSetup = "ok";
    int seccomp = 0;
    String fsType = "ext4";
    String mountSource = "/dev/sda1";
    String osId = "ubuntu";
    String osVersion = "24.04";

    ProbedHost(Path root) throws IOException {
        this.root = root;
        this.storage = Files.createDirectories(root.resolve("zstack_ps")).toRealPath();
    }

    /** Runs the real probe against this host for primary storage {@code ps1} at {@link #storage}. */
    Shell.Result probe() throws IOException, InterruptedException {
        Path proc = root.resolve("proc");
        Files.createDirectories(proc.resolve("sys/kernel"));
        Files.createDirectories(proc.resolve("sys/fs"));
        Files.createDirectories(proc.resolve("self"));
        Path disabled = proc.resolve("sys/kernel/io_uring_disabled");
        if (ioUringDisabled == null) Files.deleteIfExists(disabled); else Files.writeString(disabled, ioUringDisabled + "\n");
        Files.writeString(proc.resolve("sys/fs/aio-max-nr"), aioMaxNr + "\n");
        Files.writeString(proc.resolve("sys/fs/aio-nr"), aioNr + "\n");
        Files.writeString(proc.resolve("self/status"), "Name:\tsh\nSeccomp:\t" + seccomp + "\nSeccomp_filters:\t0\n");
        Files.writeString(proc.resolve("mounts"), "/dev/sda1 / ext4 rw,relatime 0 0\nproc /proc proc rw 0 0\n"
                + mountSource + " " + storage + " " + fsType + " rw,relatime 0 0\n");
        Path os = root.resolve("os-release");
        Files.writeString(os, "NAME=\"X\"\nID=" + osId + "\nVERSION_ID=\"" + osVersion + "\"\n");
        Path bin = Files.createDirectories(root.resolve("bin"));
        tool(bin, "uname", "case \"$1\" in -r) echo '" + release + "' ;; -m) echo x86_64 ;; *) echo Linux ;; esac");
        tool(bin, "qemu-img", "case \"$1\" in\n"
                + "  --version) echo 'qemu-img version " + qemu + "' ;;\n"
                + "  create) : > \"$(eval echo \\${$#})\" ;;\n"
                + "  bench) case \"$*\" in\n"
                + "    *'-i io_uring'*) printf '%s' " + HostScript.quote(ioUringBench) + " >&2; exit " + ioUringExit + " ;;\n"
                + "    *'-i native'*) printf '%s' " + HostScript.quote(nativeBench) + " >&2; exit " + nativeExit + " ;;\n"
                + "  esac ;;\n"
                + "esac\nexit 0");
        tool(bin, "ldd", "echo '\tlinux-vdso.so.1 (0x00007ffd)'\n"
                + (liburing == null ? "" : "echo '\t" + liburing + " => /lib/x86_64-linux-gnu/" + liburing + " (0x00007f)'\n")
                + "echo '\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f)'");
        tool(bin, "perl", "echo '" + uringSetup + "'");
        tool(bin, "libvirtd", "echo 'libvirtd (libvirt) 10.0.0'");
        Path emulator = bin.resolve("qemu-system-x86_64");
        tool(bin, "qemu-system-x86_64", "exit 0");
        Map<String, String> env = new HashMap<>();
        env.put("PATH", bin + ":" + System.getenv("PATH"));
        env.put("AIO_PROC", proc.toString());
        env.put("AIO_OS_RELEASE", os.toString());
        env.put("AIO_LIBVIRT_QEMU_CONF", root.resolve("qemu.conf").toString());
        env.put("AIO_QEMU_EMULATOR", emulator.toString());
        env.put("AIO_KVMAGENT_DIR", root.resolve("no-agent").toString());
        List<String> cmd = new ArrayList<>(List.of("sh", SCRIPT.toString(), "ps1=" + storage));
        return Shell.run(cmd, env);
    }

    private static void tool(Path bin, String name, String body) throws IOException {
        Path f = bin.resolve(name);
        Files.writeString(f, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
