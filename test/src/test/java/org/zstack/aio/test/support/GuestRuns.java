package org.zstack.aio.test.support;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the tiny guest through the platform's own API, as a user would: a data volume, a VM created with a direct
 * kernel boot ({@code params.boot}, {@code accel tcg}), its io mode set on the volume, start, the guest's result
 * from its serial console, the workload the platform observed ({@code workload} of GET /v1/volumes/{uuid}), stop.
 * Shared by RealGuestWorkloadE2ETest and the guest bench (load/GuestBench).
 */
public final class GuestRuns {

    /** Guest memory: the kernel, a 1.5 MB initramfs and aioload's buffers fit easily. */
    static final long MEMORY = 160L << 20;

    private final Http http;
    private final String session;
    private final String host;
    private final String storage;
    private final String storageDir;
    private final String kernel;
    private final String initrd;

    public GuestRuns(Http http, String session, String host, String storage, String storageDir) throws java.io.IOException {
        this.http = http;
        this.session = session;
        this.host = host;
        this.storage = storage;
        this.storageDir = storageDir;
        Path[] files = TinyGuest.installInto(storageDir);
        this.kernel = files[0].toString();
        this.initrd = files[1].toString();
    }

    /** One guest run's outcome. */
    public record Run(String volume, String vm, String installPath, String appliedIo, TinyGuest.Result guest,
                      JsonNode workload, String console) {
    }

    /** A fully preallocated data volume of this format, with its io mode set on the volume (null: inherit). */
    public String volume(String name, String format, long bytes, String ioMode) {
        Http.Response r = http.post("/v1/volumes/data", session, "{\"params\":{\"name\":\"" + name + "\",\"size\":" + bytes
                + ",\"format\":\"" + format + "\",\"preallocation\":\"full\",\"primaryStorageUuid\":\"" + storage
                + "\",\"hostUuid\":\"" + host + "\"}}");
        require(r, 200);
        String uuid = r.body().path("inventory").path("uuid").asText();
        if (ioMode != null) ioMode(uuid, ioMode);
        return uuid;
    }

    public void ioMode(String volume, String mode) {
        require(http.put("/v1/resource-configurations/kvm/vm.ioMode/" + volume + "/actions", session,
                "{\"updateResourceConfig\":{\"value\":\"" + mode + "\"}}"), 200);
    }

    /** A stopped VM that boots the tiny guest running {@code workload} for {@code seconds} on this volume. */
    public String vm(String name, String volume, String workload, int seconds, long seed) {
        String console = consoleLog(name).toString();
        Http.Response r = http.post("/v1/vm-instances", session, "{\"params\":{\"name\":\"" + name + "\",\"hostUuid\":\"" + host
                + "\",\"memorySize\":" + MEMORY + ",\"cpuNum\":1,\"volumeUuids\":[\"" + volume + "\"],\"accel\":\"tcg\","
                + "\"boot\":{\"kernel\":\"" + kernel + "\",\"initrd\":\"" + initrd + "\",\"cmdline\":\""
                + TinyGuest.cmdline(workload, seconds, seed, 0) + "\",\"consoleLog\":\"" + console + "\"}}}");
        require(r, 200);
        return r.body().path("inventory").path("uuid").asText();
    }

    public Path consoleLog(String vmName) {
        return Path.of(storageDir, "console-" + vmName + ".log");
    }

    /**
     * Starts the VM, reads the workload the platform observed while the guest's workload runs (at 80 % of its
     * {@code seconds}, so the profile is the workload's and not the boot's or the idle tail's), waits for the guest's
     * result, stops the VM. {@code beforeStop} sees the run while the VM still runs (e.g. to look at the QEMU process).
     */
    public Run run(String vmName, String vm, String volume, int seconds, long timeoutMillis,
                   java.util.function.Consumer<Run> beforeStop) throws InterruptedException {
        Path log = consoleLog(vmName);
        try {
            java.nio.file.Files.deleteIfExists(log);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        Http.Response started = http.put("/v1/vm-instances/" + vm + "/actions", session, "{\"startVmInstance\":{}}");
        require(started, 200);
        try {
            String applied = started.body().path("ioModeDecisions").get(0).path("appliedIo").asText(null);
            TinyGuest.awaitLine(log, "AIOGUEST: booted", timeoutMillis);
            Thread.sleep(seconds * 800L);
            JsonNode inv = http.get("/v1/volumes/" + volume, session).body().path("inventory");
            TinyGuest.Result result = TinyGuest.awaitResult(log, timeoutMillis);
            Run run = new Run(volume, vm, inv.path("installPath").asText(), applied, result, inv.path("workload"),
                    TinyGuest.console(log));
            if (beforeStop != null) beforeStop.accept(run);
            return run;
        } finally {
            require(http.put("/v1/vm-instances/" + vm + "/actions", session, "{\"stopVmInstance\":{}}"), 200);
        }
    }

    /** The workload as the platform observed it, waiting until it has at least {@code minSeconds} of samples. */
    public JsonNode awaitWorkload(String volume, double minSeconds, long timeoutMillis) throws InterruptedException {
        long until = System.currentTimeMillis() + timeoutMillis;
        JsonNode w;
        do {
            w = http.get("/v1/volumes/" + volume, session).body().path("inventory").path("workload");
            if (w.isObject() && w.path("sampledSeconds").asDouble() >= minSeconds) return w;
            Thread.sleep(250);
        } while (System.currentTimeMillis() < until);
        return w;
    }

    /** What the next start would decide for the volume (GET /v1/volumes/{uuid}/io-mode). */
    public JsonNode decision(String volume) {
        Http.Response r = http.get("/v1/volumes/" + volume + "/io-mode", session);
        require(r, 200);
        return r.body();
    }

    /**
     * The benchmark's medians of one cell ({@code imageKind} × {@code workload}) per mode that ran: mode → [median,
     * min, max] ops/s.
     */
    public static Map<String, double[]> cell(JsonNode benchmark, String imageKind, String workload) {
        Map<String, double[]> out = new HashMap<>();
        for (JsonNode c : benchmark.path("cells")) {
            boolean ran = c.path("error").isNull() || c.path("error").isMissingNode();
            if (ran && imageKind.equals(c.path("imageKind").asText()) && workload.equals(c.path("workload").asText())) {
                out.put(c.path("mode").asText(), new double[]{c.path("medianOps").asDouble(), c.path("minOps").asDouble(),
                        c.path("maxOps").asDouble()});
            }
        }
        return out;
    }

    /** The mode with the highest median in a cell. */
    public static String best(Map<String, double[]> cell) {
        return cell.entrySet().stream().max(Map.Entry.comparingByValue((a, b) -> Double.compare(a[0], b[0])))
                .map(Map.Entry::getKey).orElseThrow();
    }

    /**
     * The acceptance rule for one pick: it reaches 95 % of the best mode's median, or its runs overlap the best
     * mode's runs (within that cell's measured spread).
     */
    public static boolean acceptable(Map<String, double[]> cell, String pick) {
        double[] p = cell.get(pick);
        double[] b = cell.get(best(cell));
        return p != null && (p[0] >= 0.95 * b[0] || p[2] >= b[1]);
    }

    public static List<String> modes() {
        return List.of("threads", "native", "io_uring");
    }

    private static void require(Http.Response r, int status) {
        if (r.status() != status) throw new AssertionError("expected " + status + ": " + r.raw());
    }
}
