package org.zstack.aio.agent.bench;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code qemu-img bench}'s output:
 * <pre>
 * Sending 20000 write requests, 4096 bytes each, 64 in parallel (starting at offset 0, step size 50565120)
 * Run completed in 0.342 seconds.
 * </pre>
 */
public final class QemuImgBenchOutput {

    private static final Pattern SENDING = Pattern.compile("Sending (\\d+) (read|write) requests, (\\d+) bytes each, (\\d+) in parallel");
    private static final Pattern COMPLETED = Pattern.compile("Run completed in ([0-9]+(?:\\.[0-9]+)?) seconds");

    /** A parsed run. */
    public record Run(int count, boolean write, int blockSize, int depth, double seconds) {
        public double opsPerSecond() {
            return seconds > 0 ? count / seconds : Double.POSITIVE_INFINITY;
        }
    }

    private QemuImgBenchOutput() {
    }

    /** @throws IllegalArgumentException when the output has no "Sending ..." or "Run completed in ..." line */
    public static Run parse(String stdout) {
        String s = stdout == null ? "" : stdout;
        Matcher send = SENDING.matcher(s);
        Matcher done = COMPLETED.matcher(s);
        if (!send.find() || !done.find()) {
            throw new IllegalArgumentException("not qemu-img bench output: " + s.strip());
        }
        double seconds = Double.parseDouble(done.group(1));
        // qemu-img prints 3 decimals: a run faster than a millisecond counts as one
        return new Run(Integer.parseInt(send.group(1)), "write".equals(send.group(2)), Integer.parseInt(send.group(3)),
                Integer.parseInt(send.group(4)), Math.max(seconds, 0.001));
    }
}
