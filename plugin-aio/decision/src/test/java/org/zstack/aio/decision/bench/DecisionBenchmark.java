package org.zstack.aio.decision.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Throughput of {@link IoModeDecider#decide} on one thread over a mix of realistic inputs (issue 2, Performance:
 * target >= 1,000,000 decisions/s). Not a unit test (the name does not match surefire's includes); run it with
 * {@link #main}, see docs/decision.md.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(value = 2, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class DecisionBenchmark {

    private IoModeDecider decider;
    private DecisionInput[] inputs;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        decider = new IoModeDecider(IoModeRulesLoader.fromClasspath());
        inputs = mix().toArray(DecisionInput[]::new);
        // the mix must exercise every outcome, or the number says little
        List<String> outcomes = new ArrayList<>();
        for (DecisionInput in : inputs) {
            IoModeDecision d = decider.decide(in);
            outcomes.add(d.refused() ? "refused" : d.effectiveWire());
        }
        for (String expected : List.of("io_uring", "native", "threads", "refused", "not-applicable")) {
            if (!outcomes.contains(expected)) throw new IllegalStateException("benchmark mix never yields " + expected + ": " + outcomes);
        }
    }

    /** What a management server sees when VMs start: mostly auto on qcow2 files, native on LVs, io_uring on modern hosts. */
    static List<DecisionInput> mix() {
        HostFacts modern = new HostFacts("h-modern", Version.parse("6.18.44-fc-v669"), 0, Version.parse("8.2.2"), true, Version.parse("10.0.0"));
        HostFacts el8 = new HostFacts("h-el8", Version.parse("4.18.0-553.el8_10.x86_64"), null, Version.parse("6.2.0"), false, Version.parse("8.0.0"));
        HostFacts ubuntu2004 = new HostFacts("h-focal", Version.parse("5.4.0-150-generic"), null, Version.parse("4.2.1"), true, Version.parse("6.0.0"));
        HostFacts qemu71 = new HostFacts("h-qemu71", Version.parse("6.1.0"), 0, Version.parse("7.1.0"), true, Version.parse("9.0.0"));
        HostFacts locked = new HostFacts("h-locked", Version.parse("6.6.30"), 2, Version.parse("8.2.2"), true, Version.parse("10.0.0"));
        long g = 1L << 30;
        VolumeFacts qcow2Thin = new VolumeFacts("v-qcow2-thin", "LocalStorage", "qcow2", "none", 40 * g, 3 * g, "none");
        VolumeFacts qcow2Meta = new VolumeFacts("v-qcow2-meta", "NFS", "qcow2", "metadata", 100 * g, null, "none");
        VolumeFacts rawFull = new VolumeFacts("v-raw-full", "SharedMountPoint", "raw", "full", 20 * g, 20 * g, "directsync");
        VolumeFacts rawFalloc = new VolumeFacts("v-raw-falloc", "NFS", "raw", "falloc", 20 * g, 20 * g, "none");
        VolumeFacts lv = new VolumeFacts("v-lv", "SharedBlock", "raw", "none", 50 * g, null, "none");
        VolumeFacts lvWriteback = new VolumeFacts("v-lv-wb", "SharedBlock", "qcow2", "none", 50 * g, null, "writeback");
        VolumeFacts rbd = new VolumeFacts("v-rbd", "Ceph", "raw", null, 80 * g, null, "none");
        DecisionPolicy fallback = new DecisionPolicy(OnUnsatisfied.FALLBACK, false);
        DecisionPolicy fallbackFalloc = new DecisionPolicy(OnUnsatisfied.FALLBACK, true);
        DecisionPolicy fail = new DecisionPolicy(OnUnsatisfied.FAIL, false);

        List<DecisionInput> mix = new ArrayList<>();
        // auto on file/qcow2 (the common case)
        for (HostFacts h : new HostFacts[]{modern, el8, ubuntu2004, qemu71, locked}) {
            mix.add(new DecisionInput(RequestedIoMode.AUTO, ConfigSource.GLOBAL, qcow2Thin, h, fallback));
            mix.add(new DecisionInput(RequestedIoMode.AUTO, ConfigSource.PRIMARY_STORAGE, qcow2Meta, h, fallback));
        }
        mix.add(new DecisionInput(RequestedIoMode.AUTO, ConfigSource.GLOBAL, rawFull, el8, fallback));
        mix.add(new DecisionInput(RequestedIoMode.AUTO, ConfigSource.GLOBAL, rawFalloc, ubuntu2004, fallbackFalloc));
        // native on block
        for (HostFacts h : new HostFacts[]{modern, el8, ubuntu2004}) {
            mix.add(new DecisionInput(RequestedIoMode.NATIVE, ConfigSource.PRIMARY_STORAGE, lv, h, fallback));
        }
        mix.add(new DecisionInput(RequestedIoMode.NATIVE, ConfigSource.VOLUME, lvWriteback, modern, fail));
        mix.add(new DecisionInput(RequestedIoMode.NATIVE, ConfigSource.VOLUME, qcow2Thin, modern, fallback));
        // io_uring with host facts
        for (HostFacts h : new HostFacts[]{modern, el8, ubuntu2004, qemu71, locked}) {
            mix.add(new DecisionInput(RequestedIoMode.IO_URING, ConfigSource.VOLUME, lv, h, fallback));
            mix.add(new DecisionInput(RequestedIoMode.IO_URING, ConfigSource.GLOBAL, qcow2Thin, h, fallback));
        }
        mix.add(new DecisionInput(RequestedIoMode.IO_URING, ConfigSource.VOLUME, rawFull, el8, fail));
        mix.add(new DecisionInput(RequestedIoMode.IO_URING, ConfigSource.GLOBAL, qcow2Thin, null, fallback));
        // threads and network storage
        mix.add(new DecisionInput(RequestedIoMode.THREADS, ConfigSource.GLOBAL, qcow2Thin, modern, fallback));
        mix.add(new DecisionInput(RequestedIoMode.AUTO, ConfigSource.GLOBAL, rbd, modern, fallback));
        return mix;
    }

    @Benchmark
    public IoModeDecision decide() {
        DecisionInput[] in = inputs;
        int i = next;
        next = i + 1 == in.length ? 0 : i + 1;
        return decider.decide(in[i]);
    }

    /** Runs the benchmark with the settings above (2 forks x 5 x 1 s after 3 x 1 s warm-up), one thread. */
    public static void main(String[] args) throws RunnerException {
        Options opt = new OptionsBuilder()
                .include(DecisionBenchmark.class.getName() + ".decide$")
                .shouldFailOnError(true)
                .build();
        new Runner(opt).run();
    }
}
