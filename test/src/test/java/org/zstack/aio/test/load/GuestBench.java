package org.zstack.aio.test.load;

import com.fasterxml.jackson.databind.JsonNode;
import org.zstack.aio.agent.api.BenchScores;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.GuestRuns;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;
import org.zstack.aio.test.support.TinyGuest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The acceptance bench of issue 14 (not a unit test; {@code bin/aio-load guest-bench [runs=3] [seconds=6]}): for each
 * fully preallocated image kind (qcow2 full, raw full) and each workload of the agent's benchmark matrix, the tiny
 * guest runs the workload through the platform's own VM start with threads, native and io_uring, {@code runs} times
 * each (modes rotated per repetition); the platform's observed profile and auto's pick for that volume are then
 * read through the API and compared with the guest-measured medians and with {@code qemu-img bench}'s (the host
 * benchmark through the API, same storage, same run). Prints a markdown table, also to docs/perf/guest-bench.txt.
 */
public final class GuestBench {

    /** -Daio.guestbench.kinds=raw-full measures one kind (a run of both takes ~30 min at load ~10) */
    static final List<String> KINDS = List.of(System.getProperty("aio.guestbench.kinds", "qcow2-full,raw-full").split(","));
    static final long DISK = 64L << 20;

    public static void main(String[] a) throws Exception {
        int runs = a.length > 0 ? Integer.parseInt(a[0]) : 3;
        int seconds = a.length > 1 ? Integer.parseInt(a[1]) : 6;
        List<String> workloads = a.length > 2 ? Arrays.asList(a[2].split(",")) : BenchScores.WORKLOADS;
        int benchSeconds = a.length > 3 ? Integer.parseInt(a[3]) : 110;
        List<String> out = new ArrayList<>();
        try (TestDatabase db = TestDatabase.mariadb();
             RunningServer server = RunningServer.start(db, Map.of("AIO_LIBVIRT_URI", "qemu:///system"))) {
            Fixture f = new Fixture(server);
            Http http = f.http;
            String admin = f.adminSession();
            String dir = Storage.dir("guest-bench");
            String ps = f.primaryStorage(admin, "guest-bench", "LocalStorage", dir);
            String host = f.localHost(admin);
            for (String[] g : List.of(new String[]{"host", "ping.interval", "1"}, new String[]{"kvm", "vm.workload.sampleInterval", "1"},
                    new String[]{"kvm", "vm.workload.halfLife", "2"})) {
                Http.Response r = http.put("/v1/global-configurations/" + g[0] + "/" + g[1] + "/actions", admin,
                        "{\"updateGlobalConfig\":{\"value\":\"" + g[2] + "\"}}");
                if (r.status() != 200) throw new IllegalStateException(r.raw());
            }
            GuestRuns guests = new GuestRuns(http, admin, host, ps, dir);
            out.add("load before: " + loadavg());
            long b0 = System.nanoTime();
            Http.Response b = http.post("/v1/hosts/" + host + "/io-benchmarks", admin, "{\"params\":{\"primaryStorageUuids\":[\""
                    + ps + "\"],\"seconds\":" + benchSeconds + ",\"imageKinds\":" + Http.JSON.writeValueAsString(KINDS) + ",\"workloads\":"
                    + Http.JSON.writeValueAsString(workloads) + "}}");
            if (b.status() != 200) throw new IllegalStateException(b.raw());
            JsonNode bench = b.body().path("inventories").get(0);
            out.add(String.format(Locale.ROOT, "qemu-img bench through the API: %.0f s, complete=%s, load after: %s",
                    (System.nanoTime() - b0) / 1e9, bench.path("complete").asText(), loadavg()));
            out.add("");
            out.add("| image kind | workload | profile the platform observed (read share, avg size, host-side depth, IOPS) | guest IOPS threads / native / io_uring (median [min-max], " + runs
                    + " runs) | qemu-img bench threads / native / io_uring | auto's pick (reason) | pick / best guest median | within spread | ok |");
            out.add("|---|---|---|---|---|---|---|---|---|");
            int n = 0;
            for (String kind : KINDS) {
                String format = kind.split("-")[0];
                for (String wl : workloads) {
                    String name = "gb-" + (n++);
                    String vol = guests.volume(name, format, DISK, "threads");
                    String vm = guests.vm(name, vol, wl, seconds, 100 + n);
                    Map<String, List<Double>> iops = new LinkedHashMap<>();
                    GuestRuns.modes().forEach(m -> iops.put(m, new ArrayList<>()));
                    JsonNode profile = null;
                    double guestDepth = 0;
                    for (int rep = 0; rep < runs; rep++) {
                        for (int i = 0; i < 3; i++) {
                            String mode = GuestRuns.modes().get((i + rep) % 3);
                            guests.ioMode(vol, mode);
                            GuestRuns.Run run = guests.run(name, vm, vol, seconds, 240_000, null);
                            if (!mode.equals(run.appliedIo())) throw new IllegalStateException(mode + " applied as " + run.appliedIo());
                            iops.get(mode).add(run.guest().iops());
                            profile = run.workload();
                            guestDepth = run.guest().guestDepth();
                            System.err.printf(Locale.ROOT, "guest-bench: %s %s %s run %d: %.0f IOPS, load %s%n", kind, wl, mode, rep + 1,
                                    run.guest().iops(), loadavg());
                        }
                    }
                    guests.ioMode(vol, "auto");
                    JsonNode d = guests.decision(vol);
                    String pick = d.path("effective").asText();
                    Map<String, double[]> guestCell = new LinkedHashMap<>();
                    iops.forEach((m, v) -> guestCell.put(m, stats(v)));
                    String best = GuestRuns.best(guestCell);
                    double ratio = guestCell.get(pick) == null ? 0 : guestCell.get(pick)[0] / guestCell.get(best)[0];
                    boolean spread = guestCell.get(pick) != null && guestCell.get(pick)[2] >= guestCell.get(best)[1];
                    Map<String, double[]> qemu = GuestRuns.cell(bench, kind, wl);
                    String row = String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s (%s) | %.0f %% (best %s) | %s | %s |", kind, wl,
                            profile(profile, guestDepth), modes(guestCell), modes(qemu), pick, d.path("reason").asText().replace("|", "/"),
                            ratio * 100, best, spread ? "yes" : "no", ratio >= 0.95 || spread ? "yes" : "**no**");
                    out.add(row);
                    System.err.println(row);
                }
            }
            out.add("");
            out.add("load after: " + loadavg());
        }
        String text = String.join("\n", out) + "\n";
        System.out.print(text);
        Path file = Path.of("docs/perf/guest-bench.txt");
        if (Files.isDirectory(file.getParent())) Files.writeString(file, text);
        System.exit(0);
    }

    /** [median, min, max]. */
    static double[] stats(List<Double> v) {
        double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double median = s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
        return new double[]{median, s[0], s[s.length - 1]};
    }

    static String modes(Map<String, double[]> cell) {
        List<String> parts = new ArrayList<>();
        for (String m : GuestRuns.modes()) {
            double[] v = cell.get(m);
            parts.add(v == null ? "—" : String.format(Locale.ROOT, "%s [%s-%s]", k(v[0]), k(v[1]), k(v[2])));
        }
        return String.join(" / ", parts);
    }

    static String k(double v) {
        return v >= 1000 ? String.format(Locale.ROOT, "%.1fk", v / 1000) : String.format(Locale.ROOT, "%.0f", v);
    }

    static String profile(JsonNode w, double guestDepth) {
        if (w == null || !w.isObject()) return "none";
        double rf = w.path("readFraction").asDouble();
        double size = rf >= 0.5 ? w.path("avgReadBytes").asDouble() : w.path("avgWriteBytes").asDouble();
        return String.format(Locale.ROOT, "%.0f %% reads, %.1fK, depth %.1f (guest kernel %.1f), %s IOPS", rf * 100, size / 1024,
                w.path("avgQueueDepth").asDouble(), guestDepth, k(w.path("readIops").asDouble() + w.path("writeIops").asDouble()));
    }

    static String loadavg() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    private GuestBench() {
    }
}
