package org.zstack.aio.plugin;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;

/**
 * A shell script with its arguments, as the text a platform sends to a host to run once (ZStack: KvmRunShellMsg).
 * <p>Why two forms: ZStack's {@code KVMHost.runShell} (5.2.0, {@code utils/ssh/Ssh.java} ScriptRunner) writes the text
 * into a file with an UNQUOTED here-document ({@code cat << EOF1 > file}), so the login shell expands every
 * {@code $var}, {@code $(...)}, backquote and backslash of the script while writing it, before the script runs. A
 * script that keeps a value in a variable is broken by that. {@link #heredocSafe()} sends the script base64-encoded,
 * which has none of those characters, and decodes it on the host into {@code sh}.
 */
public final class HostScript {

    private final String script;
    private final List<String> args;

    private HostScript(String script, List<String> args) {
        if (script == null || script.isEmpty()) throw new IllegalArgumentException("the script is empty");
        this.script = script;
        this.args = Collections.unmodifiableList(new ArrayList<String>(args));
    }

    /** The script given these positional arguments ($1, $2, ...). */
    public static HostScript of(String script, String... args) {
        for (String a : args) {
            if (a == null) throw new IllegalArgumentException("a script argument is null");
            if (a.indexOf('\n') >= 0 || a.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("a script argument holds a line break or NUL: " + a.replace("\n", "\\n"));
            }
        }
        return new HostScript(script, Arrays.asList(args));
    }

    public List<String> args() { return args; }

    /** The text as {@code sh -c TEXT} or a script file runs it: {@code set -- 'a' 'b'} and then the script. */
    public String text() {
        StringBuilder b = new StringBuilder("set --");
        for (String a : args) b.append(' ').append(quote(a));
        return b.append('\n').append(script).toString();
    }

    /**
     * One line that survives being pasted into an unquoted here-document and runs {@link #text()} with {@code sh}:
     * the text base64-encoded, decoded on the host ({@code base64 -d}, coreutils and busybox alike).
     */
    public String heredocSafe() {
        String encoded = Base64.getEncoder().encodeToString(text().getBytes(StandardCharsets.UTF_8));
        return "echo " + encoded + " | base64 -d | sh\n";
    }

    /** A single-quoted shell word: every quote closed, escaped and reopened. */
    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
