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
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.decision.WorkloadCell;
import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Throughput of the workload-aware {@code auto} (issue 14): auto with a host's benchmark of the 7 shipped workloads
 * and a disk's observed workload, the cells weighed by closeness for every decision. Same settings as
 * {@link DecisionBenchmark}; run with {@link #main}, see docs/decision.md.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(value = 2, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class WorkloadDecisionBenchmark {

    private IoModeDecider decider;
    private DecisionInput[] inputs;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        decider = new IoModeDecider(IoModeRulesLoader.fromClasspath());
        inputs = mix().toArray(new DecisionInput[0]);
        int used = 0;
        for (DecisionInput in : inputs) if (decider.decide(in).optimizedFor() != null) used++;
        if (used < inputs.length / 2) throw new IllegalStateException("the mix rarely uses the workload: " + used);
    }

    /** auto on non-sparse file volumes of a modern and an EL8 host, each with one of six observed workloads. */
    static List<DecisionInput> mix() {
        HostFacts modern = new HostFacts("h-modern", Version.parse("6.18.44"), 0, Version.parse("8.2.2"), true, Version.parse("10.0.0"));
        HostFacts el8 = new HostFacts("h-el8", Version.parse("4.18.0-553.el8_10.x86_64"), null, Version.parse("6.2.0"), false, Version.parse("8.0.0"));
        long g = 1L << 30;
        VolumeFacts qcow2Full = new VolumeFacts("v-qcow2-full", "LocalStorage", "qcow2", "full", 40 * g, 40 * g, "none");
        VolumeFacts rawFull = new VolumeFacts("v-raw-full", "NFS", "raw", "full", 20 * g, 20 * g, "none");
        ModePerformance perf = new ModePerformance(scores(1.0, 1.2, 1.6), "geomean of 7 workloads", "2026-01-01", cells());
        WorkloadProfile[] profiles = {
                new WorkloadProfile(0.22, 4096, 4096, 90, 320, 40, 3600, "t"),
                new WorkloadProfile(0.95, 65536, 4096, 800, 40, 2.5, 600, "t"),
                new WorkloadProfile(0.5, 8192, 8192, 50, 50, 1.1, 60, "t"),
                new WorkloadProfile(0.0, 0, 131072, 0, 200, 16, 7200, "t"),
                new WorkloadProfile(1.0, 4096, 0, 5000, 0, 64, 1800, "t"),
                new WorkloadProfile(0.3, 4096, 4096, 0.001, 0.002, 0.01, 60, "t"), // idle: the aggregate decides
        };
        DecisionPolicy fallback = new DecisionPolicy(OnUnsatisfied.FALLBACK, false);
        List<DecisionInput> mix = new ArrayList<>();
        for (HostFacts h : new HostFacts[]{modern, el8}) {
            for (VolumeFacts v : new VolumeFacts[]{qcow2Full, rawFull}) {
                for (WorkloadProfile w : profiles) {
                    mix.add(new DecisionInput(RequestedIoMode.AUTO, ConfigSource.GLOBAL, v, h, fallback, perf, w));
                }
            }
        }
        return mix;
    }

    private static Map<IoMode, Double> scores(double t, double n, double u) {
        Map<IoMode, Double> m = new EnumMap<>(IoMode.class);
        m.put(IoMode.THREADS, t);
        m.put(IoMode.NATIVE, n);
        m.put(IoMode.IO_URING, u);
        return m;
    }

    /** The shipped matrix (BenchScores.WORKLOADS) with ops/s like this machine's qcow2-full row. */
    private static List<WorkloadCell> cells() {
        List<WorkloadCell> c = new ArrayList<>();
        c.add(new WorkloadCell("randread-4k-qd1", 1, 4096, 1, scores(9000, 9800, 10500)));
        c.add(new WorkloadCell("randread-4k-qd16", 1, 4096, 16, scores(40000, 52000, 61000)));
        c.add(new WorkloadCell("randread-4k-qd64", 1, 4096, 64, scores(45000, 70000, 82000)));
        c.add(new WorkloadCell("randwrite-4k-qd1", 0, 4096, 1, scores(7000, 7600, 7400)));
        c.add(new WorkloadCell("randwrite-4k-qd16", 0, 4096, 16, scores(30000, 41000, 39000)));
        c.add(new WorkloadCell("randwrite-4k-qd64", 0, 4096, 64, scores(32000, 77000, 52000)));
        c.add(new WorkloadCell("seqwrite-64k-qd16", 0, 65536, 16, scores(6000, 6400, 6900)));
        return c;
    }

    @Benchmark
    public IoModeDecision decide() {
        DecisionInput[] in = inputs;
        int i = next;
        next = i + 1 == in.length ? 0 : i + 1;
        return decider.decide(in[i]);
    }

    public static void main(String[] args) throws RunnerException {
        Options opt = new OptionsBuilder()
                .include(WorkloadDecisionBenchmark.class.getName() + ".decide$")
                .shouldFailOnError(true)
                .build();
        new Runner(opt).run();
    }
}
