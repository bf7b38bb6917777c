package org.zstack.aio.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

/**
 * How far measuring goes and what it may cost (conf/aio/measure.properties, where each value says its source): the
 * storage benchmark's depths, budget, per-run bound, scratch size and reserve, and workload sampling's interval,
 * half-life and per-call bound. The file is the only source of these numbers; a bad value is refused at load with
 * its key, so a platform stops at boot rather than measure with a guess.
 */
public final class MeasureSettings {

    /** Where the file sits on both platforms' classpaths. */
    public static final String RESOURCE = "conf/aio/measure.properties";

    /** host-bench.sh takes SECONDS from 1 to this: each call ends within SECONDS + 1 s, i.e. at most 10 s. */
    public static final int RUN_SECONDS_LIMIT = 9;

    private final List<Integer> depths;
    private final int budgetSeconds;
    private final int runSecondsMax;
    private final int scratchMiB;
    private final int reserveMiB;
    private final int intervalSeconds;
    private final int halfLifeSeconds;
    private final int callSeconds;

    private MeasureSettings(Properties p, String source) {
        List<Integer> ds = new ArrayList<Integer>();
        for (String d : required(p, "bench.depths", source).split(",")) ds.add(number(d.trim(), "bench.depths", 1, 1024, source));
        if (ds.isEmpty()) throw bad("bench.depths", "at least one depth", source);
        this.depths = Collections.unmodifiableList(ds);
        this.budgetSeconds = number(p, "bench.budgetSeconds", 1, 3600, source);
        this.runSecondsMax = number(p, "bench.runSecondsMax", 1, RUN_SECONDS_LIMIT, source);
        this.scratchMiB = number(p, "bench.scratchMiB", 1, 65536, source);
        this.reserveMiB = number(p, "bench.reserveMiB", 0, Integer.MAX_VALUE, source);
        this.intervalSeconds = number(p, "workload.intervalSeconds", 10, 86400, source);
        this.halfLifeSeconds = number(p, "workload.halfLifeSeconds", 1, 30 * 86400, source);
        this.callSeconds = number(p, "workload.callSeconds", 1, 60, source);
    }

    /** @throws IllegalArgumentException naming the key and the file of the first missing or bad value */
    public static MeasureSettings of(Properties p, String source) {
        return new MeasureSettings(p, source);
    }

    /** The file as shipped, from {@code loader}'s classpath. */
    public static MeasureSettings load(ClassLoader loader) {
        InputStream in = loader.getResourceAsStream(RESOURCE);
        if (in == null) throw new IllegalStateException(RESOURCE + " is not on the classpath");
        try {
            Properties p = new Properties();
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            return of(p, RESOURCE);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        } finally {
            try {
                in.close();
            } catch (IOException ignored) {
                // nothing was written
            }
        }
    }

    /** Queue depths the benchmark runs (each read and write). */
    public List<Integer> depths() { return depths; }

    /** The benchmark of one host × storage starts no run past this. */
    public int budgetSeconds() { return budgetSeconds; }

    /** The most SECONDS one run is given (1-9). */
    public int runSecondsMax() { return runSecondsMax; }

    public int scratchMiB() { return scratchMiB; }

    public int reserveMiB() { return reserveMiB; }

    /** Seconds between two samples of a host's disks. */
    public int intervalSeconds() { return intervalSeconds; }

    public int halfLifeSeconds() { return halfLifeSeconds; }

    /** Each virsh call of a sample is bounded by this. */
    public int callSeconds() { return callSeconds; }

    private static String required(Properties p, String key, String source) {
        String v = p.getProperty(key);
        if (v == null || v.trim().isEmpty()) throw bad(key, "a value", source);
        return v.trim();
    }

    private static int number(Properties p, String key, int min, int max, String source) {
        return number(required(p, key, source), key, min, max, source);
    }

    private static int number(String v, String key, int min, int max, String source) {
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) return n;
        } catch (NumberFormatException e) {
            // said below
        }
        throw bad(key, "a whole number from " + min + " to " + max + ", not '" + v + "'", source);
    }

    private static IllegalArgumentException bad(String key, String wanted, String source) {
        return new IllegalArgumentException(source + ": " + key + " must be " + wanted);
    }
}
