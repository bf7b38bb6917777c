package org.zstack.aio.test.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.GuestRuns;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.QemuProcess;
import org.zstack.aio.test.support.RealComponents;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;
import org.zstack.aio.test.support.TinyGuest;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14 item 3, proven in a real guest: a Linux guest (Debian kernel, busybox initramfs, bin/lib/setup-guest.sh)
 * booted THROUGH THE PLATFORM'S OWN VM START (REST -> server on MariaDB -> agent -> qemu:///system, domain type qemu:
 * guest kernels boot only under TCG on these machines) runs a known O_DIRECT workload on its data disk. Checked:
 * the workload the platform observed is the guest's (direction, request size within 25 %, depth within x2); what
 * the guest wrote through threads, native and io_uring is on the host block by block; auto then picks the mode
 * this host x storage's benchmark says is best for that workload.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealGuestWorkloadE2ETest {

    /** Seconds each workload runs in the guest: several samples at the 1 s sampling interval set below. */
    static final int SECONDS = 12;
    static final long DISK = 64L << 20;

    TestDatabase db;
    RunningServer server;
    Http http;
    String admin;
    String host;
    String local;
    GuestRuns guests;
    JsonNode benchmark;

    @BeforeAll
    void boot() throws Exception {
        RealComponents.require(QemuProcess.libvirtAnswers(), "libvirtd at qemu:///system", "run bin/lib/setup-libvirt.sh as root");
        TinyGuest.require();
        db = TestDatabase.mariadb();
        server = RunningServer.start(db, Map.of("AIO_LIBVIRT_URI", "qemu:///system"));
        Fixture f = new Fixture(server);
        http = f.http;
        admin = f.adminSession();
        String dir = Storage.dir("guest-local");
        local = f.primaryStorage(admin, "guest-local", "LocalStorage", dir);
        host = f.localHost(admin);
        // sample every second and forget fast (the boot's idle seconds weigh 2^-5 after 10 s of workload): the profile
        // read while the workload runs is that workload's
        global("host", "ping.interval", "1");
        global("kvm", "vm.workload.sampleInterval", "1");
        global("kvm", "vm.workload.halfLife", "2");
        guests = new GuestRuns(http, admin, host, local, dir);
        // this host x storage measured through the API, as an operator would; only the cells the guests run
        // (CI time): the two fully preallocated kinds x the write-heavy and read-heavy workload checked below
        Http.Response b = http.post("/v1/hosts/" + host + "/io-benchmarks", admin, "{\"params\":{\"primaryStorageUuids\":[\""
                + local + "\"],\"seconds\":20,\"imageKinds\":[\"qcow2-full\",\"raw-full\"],"
                + "\"workloads\":[\"randwrite-4k-qd64\",\"randread-4k-qd16\"]}}");
        assertThat(b.status()).as(b.raw()).isEqualTo(200);
        benchmark = b.body().path("inventories").get(0);
    }

    @AfterAll
    void shutdown() throws Exception {
        if (server != null) server.close();
        if (db != null) db.close();
    }

    /*
     * Depth under TCG. A small-block workload is paced by the guest's one emulated CPU: its userspace and kernel keep
     * requests for a large part of each round trip, and QEMU's block layer -- what the platform, like any host-side
     * tool, can count -- holds them for the rest. Measured at load 0.3-2 (virsh domblkstat over 5 s, and this test in
     * CI): 4K qd16 -> QEMU 7.5-7.9 in flight, the guest's kernel 12.8-13.1; 4K qd4 -> 1.7 (3.3). A device-bound
     * workload is paced by the storage, as on real hardware: 1 MiB qd16 -> QEMU 14.7 reads / 11.0 writes (guest
     * kernel 15.9 / 12.4). So the nominal depth is checked on the device-bound workloads, and every workload is checked
     * against the depth the guest's own kernel measured on that disk.
     */
    @Test
    void randomWritesThroughThreadsAreObservedAsTheyWereAndLandIntactOnTheHost() throws Exception {
        writeRun("threads", "raw", "randwrite-4k-qd16", 11, false);
    }

    @Test
    void sequential64kWritesThroughNativeAreObservedAsTheyWereAndLandIntactOnTheHost() throws Exception {
        writeRun("native", "qcow2", "seqwrite-64k-qd16", 12, false);
    }

    /** Device-bound writes (1 MiB at depth 16): observed at the workload's nominal depth, and intact on the host. */
    @Test
    void deviceBoundWritesThroughNativeAreObservedAtTheirNominalDepth() throws Exception {
        writeRun("native", "raw", "seqwrite-1024k-qd16", 15, true);
    }

    /** Device-bound reads (1 MiB at depth 16): observed as reads of that size at the workload's nominal depth. */
    @Test
    void deviceBoundReadsAreObservedAtTheirNominalDepth() throws Exception {
        String wl = "randread-1024k-qd16";
        String vol = guests.volume("guest-bigread", "raw", DISK, "native");
        String vm = guests.vm("guest-bigread", vol, wl, SECONDS, 16);
        assertObserved(guests.run("guest-bigread", vm, vol, SECONDS, 180_000, null), wl, true);
    }

    /**
     * At depth 64 the guest's single emulated CPU is the limit (TCG): its own kernel keeps ~45 requests in flight and
     * QEMU's block layer sees ~26 at ~44k IOPS (measured; docs/performance.md §9), so this depth is checked against
     * the depth the guest's kernel measured, not the nominal 64 (the device-bound tests check the nominal depth).
     */
    @Test
    void deepRandomWritesThroughIoUringAreObservedAndAutoThenPicksTheBenchmarksBestForThem() throws Exception {
        String vol = writeRun("io_uring", "qcow2", "randwrite-4k-qd64", 13, false);
        autoPicksTheBenchmarksBest(vol, "qcow2-full", "randwrite-4k-qd64");
    }

    @Test
    void randomReadsAreObservedAsReadsAndAutoThenPicksTheBenchmarksBestForThem() throws Exception {
        String wl = "randread-4k-qd16";
        String vol = guests.volume("guest-read", "raw", DISK, "threads");
        String vm = guests.vm("guest-read", vol, wl, SECONDS, 14);
        GuestRuns.Run run = guests.run("guest-read", vm, vol, SECONDS, 180_000, null);
        assertObserved(run, wl, false);
        autoPicksTheBenchmarksBest(vol, "raw-full", wl);
    }

    /** One write workload in one mode: observed as written, and every block it wrote is on the host intact. */
    String writeRun(String mode, String format, String wl, long seed, boolean nominalDepth) throws Exception {
        String name = "guest-" + mode + "-" + seed;
        String vol = guests.volume(name, format, DISK, mode);
        String vm = guests.vm(name, vol, wl, SECONDS, seed);
        GuestRuns.Run run = guests.run(name, vm, vol, SECONDS, 180_000, r ->
                assertThat(QemuProcess.of(r.vm()).aio(r.installPath())).as("aio of the running disk").isEqualTo(mode));
        assertThat(run.appliedIo()).isEqualTo(mode);
        assertObserved(run, wl, nominalDepth);
        TinyGuest.Check check = TinyGuest.verify(run.installPath(), format, seed);
        assertThat(check.intact()).as("block " + check.firstBadBlock() + " of " + run.installPath()
                + " is neither zero nor what the guest wrote there (" + mode + ")").isTrue();
        assertThat(check.patterned()).as("blocks the guest wrote (" + mode + ")").isEqualTo(run.guest().distinct4k())
                .isPositive();
        return vol;
    }

    /**
     * The platform's profile of the run against the workload the guest ran: direction, request size within 25 %,
     * and depth within a third to x2 of the depth the guest's own kernel measured on that disk (its time in queue) and, when
     * {@code nominalDepth}, within x2 of the workload's depth as well.
     */
    void assertObserved(GuestRuns.Run run, String wl, boolean nominalDepth) {
        String[] p = wl.split("-");
        boolean write = p[0].endsWith("write");
        int bytes = Integer.parseInt(p[1].replace("k", "")) * 1024;
        int depth = Integer.parseInt(p[2].replace("qd", ""));
        JsonNode w = run.workload();
        String seen = "observed " + w + " for guest " + run.guest() + "\nconsole:\n" + run.console();
        System.out.printf(java.util.Locale.ROOT, "guest %s: platform saw %.0f %% reads, %.0f/%.0f B, depth %.1f, %.0f IOPS; "
                + "guest %.0f IOPS, its kernel's depth %.1f; load %s%n", wl, w.path("readFraction").asDouble() * 100,
                w.path("avgReadBytes").asDouble(), w.path("avgWriteBytes").asDouble(), w.path("avgQueueDepth").asDouble(),
                w.path("readIops").asDouble() + w.path("writeIops").asDouble(), run.guest().iops(), run.guest().guestDepth(),
                loadavg());
        assertThat(w.isObject()).as(seen).isTrue();
        assertThat(w.path("sampledSeconds").asDouble()).as(seen).isGreaterThan(0);
        assertThat(run.guest().ops()).as("the guest did real work").isGreaterThan(100);
        if (write) {
            assertThat(w.path("readFraction").asDouble()).as(seen).isLessThan(0.1);
            assertThat(w.path("avgWriteBytes").asDouble()).as(seen).isBetween(bytes * 0.75, bytes * 1.25);
        } else {
            assertThat(w.path("readFraction").asDouble()).as(seen).isGreaterThan(0.9);
            assertThat(w.path("avgReadBytes").asDouble()).as(seen).isBetween(bytes * 0.75, bytes * 1.25);
        }
        double observed = w.path("avgQueueDepth").asDouble();
        assertThat(run.guest().guestDepth()).as(seen).isPositive();
        // QEMU's block layer holds a CPU-paced request for 0.42-0.6 of the time the guest's kernel does (TCG; measured:
        // qcow2-full 64K qd16 6.0 of 14.3 in docs/performance.md section 9, and 5.6 of 11.3 in a CI run), so the floor is a
        // third: still a shallow observation (depth 1-2 for a qd16 guest) fails, and the ceiling stays x2
        assertThat(observed).as(seen).isBetween(run.guest().guestDepth() / 3, run.guest().guestDepth() * 2);
        if (nominalDepth) assertThat(observed).as(seen).isBetween(depth / 2.0, depth * 2.0);
    }

    /** auto, on the volume the guest ran on, picks the benchmark's best mode for that workload (or one tied with it). */
    void autoPicksTheBenchmarksBest(String vol, String kind, String wl) {
        Map<String, double[]> cell = GuestRuns.cell(benchmark, kind, wl);
        assertThat(cell).as("benchmark cell " + kind + " " + wl + " in " + benchmark.path("cells")).isNotEmpty();
        guests.ioMode(vol, "auto");
        JsonNode d = guests.decision(vol);
        String pick = d.path("effective").asText();
        String best = GuestRuns.best(cell);
        String why = "auto picked " + pick + " (" + d.path("reason").asText() + "); benchmark " + kind + " " + wl + ": "
                     + describe(cell);
        assertThat(d.path("reason").asText()).as(why).containsIgnoringCase("workload");
        assertThat(pick).as(why).isIn(cell.keySet());
        assertThat(pick.equals(best) || GuestRuns.acceptable(cell, pick)).as(why).isTrue();
    }

    static String describe(Map<String, double[]> cell) {
        StringBuilder s = new StringBuilder();
        cell.forEach((m, v) -> s.append(m).append(' ').append(Math.round(v[0])).append(" [").append(Math.round(v[1]))
                .append('-').append(Math.round(v[2])).append("] "));
        return s.toString().trim();
    }

    static String loadavg() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    void global(String category, String name, String value) {
        Http.Response r = http.put("/v1/global-configurations/" + category + "/" + name + "/actions", admin,
                "{\"updateGlobalConfig\":{\"value\":\"" + value + "\"}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
    }
}
