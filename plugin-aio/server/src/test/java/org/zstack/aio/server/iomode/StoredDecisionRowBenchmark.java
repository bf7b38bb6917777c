package org.zstack.aio.server.iomode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.zstack.aio.agent.api.DiskResult;
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
import org.zstack.aio.server.iomode.IoModeDecisionInventory.IoModeCheckInventory;
import org.zstack.aio.server.workload.WorkloadInventory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the plugin computes per VM start to tell whether its disks' stored decisions changed, for the load bench's VM
 * (4 disks: qcow2 full and sparse on LocalStorage, one on SharedBlock, auto, the simulated agent's host):
 * <ul>
 *   <li>{@code digestOfValues}: today's {@link StoredDecisionRow}s (checks as the API shows them, digest fed value by
 *   value, no JSON);</li>
 *   <li>{@code jsonThenDigest}: session 5's way, kept here as the baseline: each row's checks, attempts and workload
 *   written as JSON, then the digest of those strings;</li>
 *   <li>{@code answer}: the decisions as the start's answer serialises them (what the answer adds; not changed).</li>
 * </ul>
 * Not a unit test; run {@link #main} (with {@code -prof gc} for allocation), see docs/performance.md.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
@Fork(value = 2, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class StoredDecisionRowBenchmark {

    private final ObjectMapper json = new ObjectMapper().findAndRegisterModules();
    private List<IoModeDecision> decisions;
    private List<DiskResult> results;
    private List<org.zstack.aio.plugin.DecisionRecord> views;

    @Setup(Level.Trial)
    public void setUp() {
        IoModeDecider decider = new IoModeDecider(IoModeRulesLoader.fromClasspath());
        HostFacts host = new HostFacts("h-sim", Version.parse("6.8.0"), 0, Version.parse("8.2.0"), true, Version.parse("10.0.0"));
        DecisionPolicy fallback = new DecisionPolicy(OnUnsatisfied.FALLBACK, false);
        long m = 1L << 20;
        List<VolumeFacts> disks = List.of(new VolumeFacts("v0", "LocalStorage", "qcow2", "full", 64 * m, 64 * m, "none"),
                new VolumeFacts("v1", "LocalStorage", "qcow2", "none", 64 * m, m, "none"),
                new VolumeFacts("v2", "LocalStorage", "qcow2", "full", 64 * m, 64 * m, "none"),
                new VolumeFacts("v3", "SharedBlock", "qcow2", "none", 64 * m, null, "none"));
        decisions = new ArrayList<>();
        results = new ArrayList<>();
        views = new ArrayList<>();
        for (VolumeFacts v : disks) {
            IoModeDecision d = decider.decide(new DecisionInput(RequestedIoMode.AUTO, ConfigSource.GLOBAL, v, host, fallback));
            DiskResult r = new DiskResult(v.volumeUuid(), d.effectiveWire(), "none", List.of());
            decisions.add(d);
            results.add(r);
            views.add(new StoredDecisionRow("vm-1", org.zstack.aio.plugin.Operation.START, d, r).view());
        }
    }

    @Benchmark
    public void digestOfValues(Blackhole bh) {
        for (int i = 0; i < decisions.size(); i++) bh.consume(new StoredDecisionRow("vm-1", org.zstack.aio.plugin.Operation.START, decisions.get(i), results.get(i)));
    }

    @Benchmark
    public void jsonThenDigest(Blackhole bh) throws JsonProcessingException {
        for (int i = 0; i < decisions.size(); i++) {
            IoModeDecision dec = decisions.get(i);
            DiskResult result = results.get(i);
            List<IoModeCheckInventory> checks = IoModeCheckInventory.of(dec.checks());
            String checksJson = json.writeValueAsString(checks);
            String attemptsJson = json.writeValueAsString(result.attempts());
            String optimizedForJson = dec.optimizedFor() == null ? null : json.writeValueAsString(WorkloadInventory.of(dec.optimizedFor()));
            bh.consume(checks);
            bh.consume(DecisionDigest.of("vm-1", dec.hostUuid(), dec.requested().wire(), dec.source().wire(), dec.effectiveWire(),
                    Boolean.toString(dec.refused()), checksJson, dec.reason(), result.io(), result.cache(), attemptsJson,
                    optimizedForJson));
        }
    }

    @Benchmark
    public byte[] answer() throws JsonProcessingException {
        return json.writeValueAsBytes(views);
    }

    /** 2 forks x 5 x 1 s after 3 x 1 s warm-up, one thread, with the GC profiler (allocation per start). */
    public static void main(String[] args) throws RunnerException {
        Options opt = new OptionsBuilder().include(StoredDecisionRowBenchmark.class.getName()).addProfiler("gc")
                .shouldFailOnError(true).build();
        new Runner(opt).run();
    }
}
