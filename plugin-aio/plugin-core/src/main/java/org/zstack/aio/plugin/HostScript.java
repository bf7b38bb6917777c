package org.zstack.aio.plugin;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of plugin-aio's short host scripts (conf/aio/*.sh, POSIX sh) and the one command a platform sends to run it with
 * its arguments. The command is {@code echo <base64> | base64 -d | sh}: base64's alphabet has no character any shell
 * treats specially, so the script reaches the host as written whatever wraps it on the way. That matters: ZStack's
 * {@code KvmRunShellMsg} (KVMHost.runShell → Ssh.shell) writes the script into a file through an unquoted here-document
 * ({@code cat << EOF1 > /tmp/...}), so the login shell expands every {@code $var}, {@code $(...)} and backquote of a
 * script sent as it is, before it runs: a variable the script sets is empty, a command substitution runs early, and
 * {@code $((...))} on an unset variable makes the whole command fail (HostScriptTest runs that template).
 * The arguments travel inside the encoded text ({@code set -- '...'}), single-quoted, for the same reason; and the
 * script is one compound command ({@code { ... }}), so sh reads all of it before it runs and nothing the script starts
 * can read the rest of it from stdin.
 */
public final class HostScript {

    /** The host probe (every fact the rules test; HostIoProbe reads it). Arguments: {@code <psUuid>=<mountPath>}. */
    public static final String PROBE = "conf/aio/host-probe.sh";
    /** The read-back of a VM's disks (ReadBack reads it). Argument: the VM's uuid (the libvirt domain's name). */
    public static final String READ_BACK = "conf/aio/read-back.sh";

    /** The helpers every host script sources (bounded calls, one-line messages, its own folder). */
    public static final String LIB = "conf/aio/host-lib.sh";
    /** The line a script sources {@link #LIB} with when run by hand; a script sent carries the file in its place. */
    private static final Pattern SOURCES_LIB = Pattern.compile("(?m)^\\. \"\\$\\(dirname \"\\$0\"\\)/host-lib\\.sh\".*$");

    /** What a primary storage uuid may be on the probe's command line: the probe skips anything else. */
    private static final Pattern SAFE_KEY = Pattern.compile("[A-Za-z0-9_-]+");

    private final String name;
    private final String text;

    private HostScript(String name, String text) {
        this.name = name;
        this.text = text;
    }

    /**
     * The script {@code resource} from the class path of {@code loader} (aio-conf's jar, or a platform's jar that
     * carries conf/aio).
     *
     * @throws IllegalStateException when it is not there: a platform that ships without its scripts must not start
     */
    public static HostScript load(String resource, ClassLoader loader) {
        String text = read(resource, loader);
        Matcher m = SOURCES_LIB.matcher(text);
        if (m.find()) {
            // the host has no conf/aio: the helpers travel inside the script, where it would source them
            text = text.substring(0, m.start()) + read(LIB, loader) + text.substring(m.end());
        }
        return of(resource, text);
    }

    private static String read(String resource, ClassLoader loader) {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException(resource + " is not on the class path (module aio-conf)");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) > 0; ) out.write(buf, 0, n);
            return new String(out.toByteArray(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource + ": " + e.getMessage(), e);
        }
    }

    /** A script given as text ({@code name} says which, for messages). */
    public static HostScript of(String name, String text) {
        if (text == null || text.trim().isEmpty()) throw new IllegalArgumentException(name + " is empty");
        return new HostScript(name, text);
    }

    public String name() { return name; }

    /** The script as written. */
    public String text() { return text; }

    /**
     * The one command that runs the script with {@code args} on a host, through any shell, here-document or SSH
     * wrapping (see the class comment).
     */
    public String command(List<String> args) {
        StringBuilder s = new StringBuilder("{\nset --");
        for (String a : args) s.append(' ').append(quote(a));
        s.append('\n').append(text);
        if (!text.endsWith("\n")) s.append('\n');
        s.append("}\n");
        return "echo " + Base64.getEncoder().encodeToString(s.toString().getBytes(StandardCharsets.UTF_8))
               + " | base64 -d | sh";
    }

    public String command(String... args) {
        List<String> l = new ArrayList<String>(args.length);
        Collections.addAll(l, args);
        return command(l);
    }

    /**
     * The probe's arguments for the primary storages a host mounts, {@code <psUuid>=<mountPath>} in the given order.
     *
     * @throws IllegalArgumentException on a uuid the probe would skip (a platform bug, not a host's)
     */
    public static List<String> probeArgs(Map<String, String> mountPathsByStorageUuid) {
        List<String> out = new ArrayList<String>();
        for (Map.Entry<String, String> e : new LinkedHashMap<String, String>(mountPathsByStorageUuid).entrySet()) {
            if (!SAFE_KEY.matcher(e.getKey()).matches()) {
                throw new IllegalArgumentException("not a primary storage uuid: '" + e.getKey() + "'");
            }
            out.add(e.getKey() + "=" + e.getValue());
        }
        return out;
    }

    /**
     * This script bound to its arguments: one run as a platform sends it.
     *
     * @throws IllegalArgumentException on an argument that is null or holds a line break or NUL
     */
    public Call with(String... args) {
        for (String a : args) {
            if (a == null) throw new IllegalArgumentException("an argument of " + name + " is null");
            if (a.indexOf('\n') >= 0 || a.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("an argument of " + name + " holds a line break or NUL: " + a.replace("\n", "\\n"));
            }
        }
        List<String> l = new ArrayList<String>(args.length);
        Collections.addAll(l, args);
        return new Call(this, l);
    }

    /** One run of a script with its arguments. */
    public static final class Call {
        private final HostScript script;
        private final List<String> args;

        private Call(HostScript script, List<String> args) {
            this.script = script;
            this.args = Collections.unmodifiableList(args);
        }

        public HostScript script() { return script; }

        public List<String> args() { return args; }

        /** As {@code sh -c} or a script file runs it: {@code set -- 'a' 'b'}, then the script. */
        public String text() {
            StringBuilder b = new StringBuilder("set --");
            for (String a : args) b.append(' ').append(quote(a));
            return b.append('\n').append(script.text()).toString();
        }

        /** The one line a platform sends through KvmRunShellMsg ({@link HostScript#command(List)}). */
        public String heredocSafe() { return script.command(args) + "\n"; }
    }

    /** {@code a'b} → {@code 'a'\''b'}: one word for sh, whatever it holds. */
    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    @Override
    public String toString() { return name; }
}
