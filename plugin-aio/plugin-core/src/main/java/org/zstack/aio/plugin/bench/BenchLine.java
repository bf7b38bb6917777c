package org.zstack.aio.plugin.bench;

import org.zstack.aio.decision.IoMode;

/**
 * One line host-bench.sh prints for a run (docs/measure.md, "The benchmark script"), and the lines a stored benchmark
 * keeps: exactly one of
 * <pre>
 * bench mode=native depth=32 rw=write iops=97466
 * bench mode=native depth=32 rw=write refused=no-room /data has 12 MiB free; ...
 * bench refused=bad-arguments DEPTH must be a whole number from 1 to 1024.
 * bench mode=native depth=32 rw=write failed=qemu-img bench -i native failed: ...
 * bench mode=io_uring skipped=io_uring is not run: check io_uring-sysctl failed: ...   (stored only: a mode not run)
 * </pre>
 * Anything else a host prints (its login banner, a warning) is not a line of the benchmark: {@link #parse} answers
 * why it found none rather than guess.
 */
public final class BenchLine {

    /** What a line says. */
    public enum Kind { MEASURED, REFUSED, FAILED, SKIPPED }

    private static final String PREFIX = "bench ";

    private final Kind kind;
    private final IoMode mode;
    private final int depth;
    private final String rw;
    private final long iops;
    private final String code;
    private final String sentence;

    private BenchLine(Kind kind, IoMode mode, int depth, String rw, long iops, String code, String sentence) {
        this.kind = kind;
        this.mode = mode;
        this.depth = depth;
        this.rw = rw;
        this.iops = iops;
        this.code = code;
        this.sentence = sentence;
    }

    public static BenchLine measured(BenchRun run, long iops) {
        if (iops <= 0) throw new IllegalArgumentException("iops must be > 0: " + iops);
        return new BenchLine(Kind.MEASURED, run.mode(), run.depth(), run.rw(), iops, null, null);
    }

    public static BenchLine failed(BenchRun run, String sentence) {
        return new BenchLine(Kind.FAILED, run.mode(), run.depth(), run.rw(), 0, null, oneLine(sentence));
    }

    public static BenchLine skipped(IoMode mode, String sentence) {
        return new BenchLine(Kind.SKIPPED, mode, 0, null, 0, null, oneLine(sentence));
    }

    /**
     * The benchmark's line in what a host printed: the first line starting with {@code bench }. Null when there is
     * none; a line that starts so but says something else is answered as a {@link Kind#FAILED} line of no run,
     * naming what was wrong.
     */
    public static BenchLine parse(String stdout) {
        if (stdout == null) return null;
        for (String raw : stdout.split("\r?\n")) {
            String line = raw.trim();
            if (line.startsWith(PREFIX)) return parseLine(line);
        }
        return null;
    }

    private static BenchLine parseLine(String line) {
        IoMode mode = null;
        Integer depth = null;
        String rw = null;
        String rest = line.substring(PREFIX.length()).trim();
        while (!rest.isEmpty()) {
            int eq = rest.indexOf('=');
            if (eq <= 0) return malformed(line, "a word without '='");
            String key = rest.substring(0, eq);
            String after = rest.substring(eq + 1);
            if (key.equals("refused") || key.equals("failed") || key.equals("skipped")) {
                // the last field: a code (refused) and a sentence to the end of the line
                if (key.equals("refused")) {
                    int sp = after.indexOf(' ');
                    String code = sp < 0 ? after : after.substring(0, sp);
                    String sentence = sp < 0 ? "" : after.substring(sp + 1).trim();
                    if (code.isEmpty()) return malformed(line, "refused= without a code");
                    return new BenchLine(Kind.REFUSED, mode, depth == null ? 0 : depth, rw, 0, code, sentence);
                }
                if (after.trim().isEmpty()) return malformed(line, key + "= without a sentence");
                if (key.equals("skipped")) {
                    if (mode == null) return malformed(line, "skipped= without a mode");
                    return new BenchLine(Kind.SKIPPED, mode, 0, null, 0, null, after.trim());
                }
                // a failure of no run (mode, depth or rw missing) stays one: what the sentence says is kept
                boolean ofRun = mode != null && depth != null && rw != null;
                return new BenchLine(Kind.FAILED, ofRun ? mode : null, ofRun ? depth : 0, ofRun ? rw : null, 0, null, after.trim());
            }
            int sp = after.indexOf(' ');
            String value = sp < 0 ? after : after.substring(0, sp);
            rest = sp < 0 ? "" : after.substring(sp + 1).trim();
            if (key.equals("mode")) {
                mode = IoMode.fromWireOrNull(value);
                if (mode == null) return malformed(line, "mode '" + value + "' is none of threads, native, io_uring");
            } else if (key.equals("depth")) {
                depth = positive(value);
                if (depth == null) return malformed(line, "depth '" + value + "' is not a whole number >= 1");
            } else if (key.equals("rw")) {
                if (!value.equals("read") && !value.equals("write")) return malformed(line, "rw '" + value + "' is neither read nor write");
                rw = value;
            } else if (key.equals("iops")) {
                Long iops = positiveLong(value);
                if (iops == null) return malformed(line, "iops '" + value + "' is not a whole number >= 1");
                if (mode == null || depth == null || rw == null || !rest.isEmpty()) {
                    return malformed(line, "iops= must come last, after mode, depth and rw");
                }
                return new BenchLine(Kind.MEASURED, mode, depth, rw, iops, null, null);
            } else {
                return malformed(line, "unknown field '" + key + "'");
            }
        }
        return malformed(line, "no iops=, refused= or failed=");
    }

    private static BenchLine malformed(String line, String why) {
        return new BenchLine(Kind.FAILED, null, 0, null, 0, null,
                "the host printed a bench line this version cannot read (" + why + "): " + line);
    }

    private static Integer positive(String v) {
        Long l = positiveLong(v);
        return l == null || l > Integer.MAX_VALUE ? null : Integer.valueOf(l.intValue());
    }

    private static Long positiveLong(String v) {
        if (v.isEmpty() || v.length() > 18) return null;
        for (int i = 0; i < v.length(); i++) if (v.charAt(i) < '0' || v.charAt(i) > '9') return null;
        long l = Long.parseLong(v);
        return l >= 1 ? l : null;
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replace('\n', ' ').replace('\r', ' ').trim();
    }

    public Kind kind() { return kind; }

    /** null on a line of no run (bad arguments, a malformed line). */
    public IoMode mode() { return mode; }

    public int depth() { return depth; }

    /** read, write, or null on a line of no run. */
    public String rw() { return rw; }

    public boolean read() { return "read".equals(rw); }

    /** > 0 on a measured line. */
    public long iops() { return iops; }

    /** A refusal's code (no-room, bad-arguments); null otherwise. */
    public String code() { return code; }

    /** Why, on a refused, failed or skipped line. */
    public String sentence() { return sentence; }

    /** Whether this line answers {@code run} (its mode, depth and direction). */
    public boolean answers(BenchRun run) {
        return mode != null && rw != null && run.sameAs(mode, depth, read());
    }

    /** The line as the script prints it and a stored benchmark keeps it. */
    public String text() {
        StringBuilder b = new StringBuilder("bench");
        if (mode != null) b.append(" mode=").append(mode.wire());
        if (rw != null) b.append(" depth=").append(depth).append(" rw=").append(rw);
        switch (kind) {
            case MEASURED: return b.append(" iops=").append(iops).toString();
            case REFUSED: return b.append(" refused=").append(code).append(sentence.isEmpty() ? "" : " " + sentence).toString();
            case SKIPPED: return b.append(" skipped=").append(sentence).toString();
            default: return b.append(" failed=").append(sentence).toString();
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BenchLine && ((BenchLine) o).text().equals(text());
    }

    @Override
    public int hashCode() { return text().hashCode(); }

    @Override
    public String toString() { return text(); }
}
