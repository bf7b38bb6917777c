package org.zstack.aio.test.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tiny Linux guest of issue 14 item 3 (built once by bin/lib/setup-guest.sh: a Debian kernel and a busybox
 * initramfs with test/guest/init and the aioload generator): where its files are, the kernel command line naming
 * a workload, what it printed on its serial console, and the host-side check of what it wrote.
 */
public final class TinyGuest {

    /** The cache setup-guest.sh fills (AIO_GUEST_DIR overrides, as for the script). */
    public static Path assets() {
        String env = System.getenv("AIO_GUEST_DIR");
        return Path.of(env != null && !env.isBlank() ? env : "/var/cache/plugin-aio-guest");
    }

    /** Skips locally, fails under CI, when the guest was not built. */
    public static void require() {
        RealComponents.require(Files.isRegularFile(assets().resolve("vmlinuz")) && Files.isRegularFile(assets().resolve("initrd.gz")),
                "the tiny guest (" + assets() + "/vmlinuz, initrd.gz)", "run bin/lib/setup-guest.sh as root");
    }

    /** Copies kernel and initramfs into a storage directory (the agent boots only files inside its storage). */
    public static Path[] installInto(String storageDir) throws IOException {
        Path k = Path.of(storageDir, "guest-vmlinuz");
        Path i = Path.of(storageDir, "guest-initrd.gz");
        Files.copy(assets().resolve("vmlinuz"), k, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(assets().resolve("initrd.gz"), i, StandardCopyOption.REPLACE_EXISTING);
        return new Path[]{k, i};
    }

    /** The kernel command line that makes the guest run {@code workload} (a bench name) for that long. */
    public static String cmdline(String workload, int seconds, long seed, int delaySeconds) {
        // no_timer_check: under a loaded host the emulated CPU is too slow for the kernel's IO-APIC timer check,
        // which then panics ("IO-APIC + timer doesn't work") — seen in the guest bench at load 19
        return "console=ttyS0 quiet panic=-1 no_timer_check aio.wl=" + workload + " aio.secs=" + seconds + " aio.seed=" + seed
               + " aio.delay=" + delaySeconds + " aio.dev=vda aio.end=idle";
    }

    /** What aioload printed: {@code AIOLOAD: workload=... ops=N seconds=S iops=X bytes=B depth=D distinct4k=C}. */
    public record Result(String workload, long ops, double seconds, double iops, int bytes, int depth, long distinct4k,
                         double guestDepth) {
        static final Pattern LINE = Pattern.compile("AIOLOAD: workload=(\\S+) ops=(\\d+) seconds=([\\d.]+) iops=(\\d+) "
                                                    + "bytes=(\\d+) depth=(\\d+) distinct4k=(\\d+) guestdepth=(-?[\\d.]+)");

        public static Optional<Result> parse(String console) {
            Matcher m = LINE.matcher(console);
            if (!m.find()) return Optional.empty();
            return Optional.of(new Result(m.group(1), Long.parseLong(m.group(2)), Double.parseDouble(m.group(3)),
                    Double.parseDouble(m.group(4)), Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6)),
                    Long.parseLong(m.group(7)), Double.parseDouble(m.group(8))));
        }
    }

    public static String console(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log, java.nio.charset.StandardCharsets.ISO_8859_1) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** Waits until the guest printed a line starting with {@code prefix}; fails with the console on timeout. */
    public static void awaitLine(Path log, String prefix, long timeoutMillis) throws InterruptedException {
        long until = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < until) {
            if (console(log).contains(prefix)) return;
            Thread.sleep(100);
        }
        throw new AssertionError("no '" + prefix + "' within " + timeoutMillis + " ms; console:\n" + console(log));
    }

    /** Waits until the guest printed its result (or a failure), and answers it; fails with the console on timeout. */
    public static Result awaitResult(Path log, long timeoutMillis) throws InterruptedException {
        long until = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < until) {
            String c = console(log);
            Optional<Result> r = Result.parse(c);
            if (r.isPresent()) return r.get();
            if (c.contains("aioload failed") || c.contains("Kernel panic")) throw new AssertionError("guest failed:\n" + c);
            Thread.sleep(200);
        }
        throw new AssertionError("no AIOLOAD result within " + timeoutMillis + " ms; console:\n" + console(log));
    }

    /** Blocks of a checked image: those holding the guest's pattern, those all zero, and the first bad one (-1: none). */
    public record Check(long patterned, long zero, long firstBadBlock) {
        public boolean intact() {
            return firstBadBlock < 0;
        }
    }

    /**
     * Reads the image as the guest's disk (qcow2 through {@code qemu-img convert -O raw}) and checks every 4 KiB
     * block: never written (zero) or exactly the pattern aioload writes for (seed, block).
     */
    public static Check verify(String image, String format, long seed) throws IOException, InterruptedException {
        Path raw = Path.of(image);
        Path tmp = null;
        if (!"raw".equals(format)) {
            tmp = Files.createTempFile(Path.of(image).getParent(), ".verify-", ".raw");
            Process p = new ProcessBuilder(List.of("qemu-img", "convert", "-f", format, "-O", "raw", image, tmp.toString()))
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0) throw new IOException("qemu-img convert failed: " + out);
            raw = tmp;
        }
        try (InputStream in = Files.newInputStream(raw)) {
            byte[] block = new byte[4096];
            long patterned = 0, zero = 0;
            for (long b = 0; ; b++) {
                int n = in.readNBytes(block, 0, block.length);
                if (n == 0) break;
                if (n < block.length) return new Check(patterned, zero, b);
                if (allZero(block)) zero++;
                else if (isPattern(block, seed, b)) patterned++;
                else return new Check(patterned, zero, b);
            }
            return new Check(patterned, zero, -1);
        } finally {
            if (tmp != null) Files.deleteIfExists(tmp);
        }
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) if (x != 0) return false;
        return true;
    }

    /** aioload.c's stamp() and body(): the block's number, mix(seed ^ number), then mix(seed + i); little-endian. */
    static boolean isPattern(byte[] block, long seed, long blockNo) {
        ByteBuffer w = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN);
        if (w.getLong(0) != blockNo || w.getLong(8) != mix(seed ^ blockNo)) return false;
        for (int i = 2; i < 512; i++) {
            if (w.getLong(i * 8) != mix(seed + i)) return false;
        }
        return true;
    }

    static long mix(long x) {
        x += 0x9e3779b97f4a7c15L;
        x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
        x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
        return x ^ (x >>> 31);
    }

    public static String fmt(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private TinyGuest() {
    }
}
