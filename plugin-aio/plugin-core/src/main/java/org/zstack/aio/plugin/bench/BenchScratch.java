package org.zstack.aio.plugin.bench;

import org.zstack.aio.plugin.HostScript;
import org.zstack.aio.plugin.MeasureSettings;

/**
 * The two short calls around a benchmark's runs (conf/aio/host-bench-scratch.sh): before the first run, whether the
 * storage has room for the scratch image and the reserve of measure.properties ({@link #room}); after the last,
 * whatever ended the benchmark, the removal of its scratch files, named by the benchmark's tag ({@link #clean}). And
 * what a host printed to each, read ({@link #readRoom}, {@link #readClean}). The script's text is the platform's to
 * read, as {@link BenchScript}'s.
 */
public final class BenchScratch {

    /** Where the script sits on a platform's classpath. */
    public static final String RESOURCE = "conf/aio/host-bench-scratch.sh";

    /** What a host answered to one of the two calls. */
    public static final class Answer {
        private final boolean ok;
        private final String sentence;

        private Answer(boolean ok, String sentence) {
            this.ok = ok;
            this.sentence = sentence;
        }

        /** room: there is room; clean: nothing of the benchmark is left. */
        public boolean ok() { return ok; }

        /** What was found, in one sentence (why not, when not ok). */
        public String sentence() { return sentence; }

        @Override
        public String toString() { return (ok ? "ok: " : "not ok: ") + sentence; }
    }

    private final HostScript script;
    private final MeasureSettings settings;

    public BenchScratch(String script, MeasureSettings settings) {
        if (script == null || !script.startsWith("#!/bin/sh")) throw new IllegalArgumentException("not host-bench-scratch.sh");
        this.script = HostScript.of(RESOURCE, script);
        this.settings = settings;
    }

    /** The room check on the storage mounted at {@code path}: the scratch image and the reserve must both fit. */
    public HostScript.Call room(String path) {
        return script.with("room", absolute(path), Integer.toString(settings.scratchMiB()), Integer.toString(settings.reserveMiB()));
    }

    /** The removal of every scratch file {@code tag}'s runs may have left on the storage mounted at {@code path}. */
    public HostScript.Call clean(String path, String tag) {
        requireTag(tag);
        return script.with("clean", absolute(path), tag);
    }

    /** @throws IllegalArgumentException unless 1-32 letters or digits (a ZStack uuid is 32 hex digits) */
    public static String requireTag(String tag) {
        if (tag == null || !tag.matches("[A-Za-z0-9]{1,32}")) throw new IllegalArgumentException("a benchmark's tag is 1-32 letters or digits: " + tag);
        return tag;
    }

    public static Answer readRoom(String stdout, String stderr, int exitCode) {
        String line = line(stdout, "bench-room ");
        if (line == null) return noLine("bench-room", stdout, stderr, exitCode);
        String rest = line.substring("bench-room ".length());
        if (rest.startsWith("free=")) {
            String[] f = rest.split(" ");
            String free = f[0].substring("free=".length());
            String need = f.length > 1 && f[1].startsWith("need=") ? f[1].substring("need=".length()) : "?";
            return new Answer(true, "the storage has " + free + " MiB free; the benchmark needs " + need + " MiB");
        }
        return new Answer(false, why(rest));
    }

    public static Answer readClean(String stdout, String stderr, int exitCode) {
        String line = line(stdout, "bench-clean ");
        if (line == null) return noLine("bench-clean", stdout, stderr, exitCode);
        String rest = line.substring("bench-clean ".length());
        if (!rest.startsWith("removed=")) return new Answer(false, why(rest));
        String removed = field(rest, "removed=");
        String left = field(rest, "left=");
        if (!"0".equals(left)) {
            return new Answer(false, left + " scratch file(s) of this benchmark could not be removed (" + removed + " were)");
        }
        if ("0".equals(removed)) return new Answer(true, "no scratch file of this benchmark was left");
        return new Answer(true, removed + " scratch file(s) of this benchmark were left and are removed");
    }

    private static Answer noLine(String what, String stdout, String stderr, int exitCode) {
        String script = line(stdout, "bench-scratch ");
        if (script != null) return new Answer(false, why(script.substring("bench-scratch ".length())));
        String first = first(stderr != null && !stderr.trim().isEmpty() ? stderr : stdout);
        return new Answer(false, "the host printed no " + what + " line (exit code " + exitCode + "): " + first);
    }

    /** {@code refused=no-room <sentence>}, {@code failed=<sentence>}: the sentence. */
    private static String why(String rest) {
        if (rest.startsWith("refused=")) {
            int sp = rest.indexOf(' ');
            return sp < 0 ? "the host refused (" + rest.substring("refused=".length()) + ")" : rest.substring(sp + 1).trim();
        }
        if (rest.startsWith("failed=")) return rest.substring("failed=".length()).trim();
        return "the host answered a line this version cannot read: " + rest;
    }

    private static String field(String rest, String key) {
        for (String w : rest.split(" ")) if (w.startsWith(key)) return w.substring(key.length());
        return "?";
    }

    private static String line(String stdout, String prefix) {
        if (stdout == null) return null;
        for (String raw : stdout.split("\r?\n")) {
            String l = raw.trim();
            if (l.startsWith(prefix)) return l;
        }
        return null;
    }

    private static String first(String s) {
        if (s == null || s.trim().isEmpty()) return "(nothing)";
        String t = s.trim();
        int nl = t.indexOf('\n');
        String f = nl < 0 ? t : t.substring(0, nl);
        return f.length() > 300 ? f.substring(0, 300) + "..." : f;
    }

    private static String absolute(String path) {
        if (path == null || !path.startsWith("/")) throw new IllegalArgumentException("the storage's path must be absolute: " + path);
        return path;
    }
}
