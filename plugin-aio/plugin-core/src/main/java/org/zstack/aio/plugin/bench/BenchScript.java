package org.zstack.aio.plugin.bench;

import org.zstack.aio.plugin.HostScript;
import org.zstack.aio.plugin.MeasureSettings;

/**
 * conf/aio/host-bench.sh given one run's arguments: what a platform sends to the host for that run. The script's text
 * is the platform's to read (the ZStack module from its jar, tests from conf/): plugin-core holds no copy.
 */
public final class BenchScript {

    /** Where the script sits on a platform's classpath. */
    public static final String RESOURCE = "conf/aio/host-bench.sh";

    private final HostScript script;
    private final MeasureSettings settings;

    public BenchScript(String script, MeasureSettings settings) {
        if (script == null || !script.startsWith("#!/bin/sh")) throw new IllegalArgumentException("not host-bench.sh: " + head(script));
        this.script = HostScript.of(RESOURCE, script);
        this.settings = settings;
    }

    /**
     * The call for {@code run} on the storage mounted at {@code path} of this host, with a scratch image of
     * {@code kind}.
     */
    public HostScript.Call forRun(BenchRun run, String path, ImageKind kind) {
        return script.with(args(run, path, kind));
    }

    /**
     * The same with the benchmark's {@code tag} (1-32 letters or digits): the run's scratch image is named
     * {@code .aio-bench.TAG.*}, so {@link BenchScratch#clean} removes exactly this benchmark's leftovers.
     */
    public HostScript.Call forRun(BenchRun run, String path, ImageKind kind, String tag) {
        BenchScratch.requireTag(tag);
        String[] a = args(run, path, kind);
        String[] withTag = java.util.Arrays.copyOf(a, a.length + 1);
        withTag[a.length] = tag;
        return script.with(withTag);
    }

    private String[] args(BenchRun run, String path, ImageKind kind) {
        if (path == null || !path.startsWith("/")) throw new IllegalArgumentException("the storage's path must be absolute: " + path);
        return new String[]{path, run.mode().wire(), Integer.toString(run.depth()), run.rw(),
                Integer.toString(Math.min(run.seconds(), MeasureSettings.RUN_SECONDS_LIMIT)), kind.format(),
                kind.qemuPreallocation(), Integer.toString(settings.scratchMiB()), Integer.toString(settings.reserveMiB())};
    }

    private static String head(String s) {
        if (s == null) return "null";
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
