package org.zstack.aio.agent.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.zstack.aio.agent.domain.DiskTargets;
import org.zstack.aio.agent.domain.DomainXmlPatcher;
import org.zstack.aio.agent.domain.DomainXmlPatcher.DriverChange;
import org.zstack.aio.agent.support.SampleDomains;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Patching the {@code <driver io cache>} of all disks of a 64-disk domain XML: parse, change 64 drivers,
 * write (target: under 200 µs). Run: see docs/agent.md ("JMH").
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 2, jvmArgsAppend = "-Xmx256m")
@Warmup(iterations = 10, time = 1) // C2 needs ~5 s on a busy 2-core machine
@Measurement(iterations = 5, time = 1)
public class DomainXmlPatchBenchmark {

    private DomainXmlPatcher patcher;
    private String xml64;
    private List<DriverChange> changes;

    @Setup
    public void setUp() {
        patcher = new DomainXmlPatcher();
        xml64 = SampleDomains.xmlWithDisks(64);
        String[] modes = {"threads", "native", "io_uring"};
        changes = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            changes.add(new DriverChange(DiskTargets.virtio(i), modes[i % 3], "none"));
        }
    }

    @Benchmark
    public String patch64Disks() {
        return patcher.patch(xml64, changes);
    }

    /** What a VM start does after a refusal: patch, then read the drivers back. */
    @Benchmark
    public int patchAndReadBack64Disks() {
        return patcher.readDrivers(patcher.patch(xml64, changes)).size();
    }

    /** No arguments: the documented run. With arguments: JMH's own command line (e.g. -f 1 -wi 2 -i 3). */
    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        if (args.length == 0) {
            new Runner(new OptionsBuilder().include(DomainXmlPatchBenchmark.class.getSimpleName()).build()).run();
        } else {
            new Runner(new OptionsBuilder().parent(new CommandLineOptions(args))
                    .include(DomainXmlPatchBenchmark.class.getSimpleName()).build()).run();
        }
    }
}
