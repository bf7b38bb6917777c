package org.zstack.aio.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.zstack.aio.agent.api.HostBenchCmd;
import org.zstack.aio.agent.api.HostBenchRsp;
import org.zstack.aio.agent.bench.BenchTable;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.rules.IoModeRulesLoader;
import org.zstack.aio.agent.bench.IoBenchmark;
import org.zstack.aio.agent.http.AgentException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code aio-agent bench --path DIR [--seconds N]}: benchmarks a directory's io modes and prints the table. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmark threads/native/io_uring on a directory with qemu-img bench (no server, no libvirt).")
public final class BenchCommand implements Callable<Integer> {

    @Option(names = "--path", required = true, description = "directory on the storage to measure")
    Path path;

    @Option(names = "--seconds", description = "time budget (default ${DEFAULT-VALUE})", defaultValue = "50")
    int seconds;

    @Option(names = "--reps", description = "runs per mode and cell (default ${DEFAULT-VALUE})", defaultValue = "3")
    int reps;

    @Option(names = "--kinds", split = ",", description = "image kinds (default all): qcow2-none,qcow2-metadata,"
            + "qcow2-falloc,qcow2-full,raw-none,raw-full")
    List<String> kinds;

    @Option(names = "--workloads", split = ",", description = "workloads (default all): randread-4k-qd1,randread-4k-qd16,"
            + "randread-4k-qd64,randwrite-4k-qd1,randwrite-4k-qd16,randwrite-4k-qd64,seqwrite-64k-qd16")
    List<String> workloads;

    @Option(names = "--tie-margin", description = "auto's tie margin, as in io-mode-rules.yaml (default ${DEFAULT-VALUE})",
            defaultValue = "0.05")
    double margin;

    @Option(names = "--json", description = "also write the raw result as JSON to this file")
    Path json;

    @Override
    public Integer call() throws Exception {
        IoBenchmark b = new IoBenchmark(new HostBenchCmd(path.toAbsolutePath().toString(), seconds, kinds, workloads, reps));
        HostBenchRsp r;
        try {
            r = b.run();
        } catch (AgentException e) {
            System.err.println("aio-agent bench: " + e.getMessage() + (e.details() == null || e.details().isBlank() ? "" : " (" + e.details() + ")"));
            return 2;
        } catch (IllegalArgumentException e) {
            System.err.println("aio-agent bench: " + e.getMessage());
            return 2;
        }
        if (json != null) {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), r);
        }
        System.out.print(new BenchTable(new IoModeDecider(IoModeRulesLoader.load())).render(r, margin));
        return r.complete() ? 0 : 1;
    }
}
