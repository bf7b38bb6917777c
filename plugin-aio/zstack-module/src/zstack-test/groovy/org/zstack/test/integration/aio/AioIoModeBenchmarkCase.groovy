package org.zstack.test.integration.aio

import org.zstack.core.Platform
import org.zstack.core.db.Q
import org.zstack.core.db.SQL
import org.zstack.header.core.progress.TaskProgressVO
import org.zstack.header.core.progress.TaskProgressVO_
import org.zstack.header.core.progress.TaskType
import org.zstack.header.host.HostStatus
import org.zstack.header.host.HostVO
import org.zstack.header.host.HostVO_
import org.zstack.header.longjob.LongJobState
import org.zstack.header.longjob.LongJobVO
import org.zstack.header.longjob.LongJobVO_
import org.zstack.header.storage.primary.PrimaryStorageVO
import org.zstack.header.storage.primary.PrimaryStorageVO_
import org.zstack.sdk.CancelLongJobAction
import org.zstack.sdk.SubmitLongJobAction
import org.zstack.storage.primary.local.LocalStoragePrimaryStorageGlobalConfig
import org.zstack.utils.gson.JSONObjectUtil

import java.util.concurrent.TimeUnit

/**
 * The io-mode benchmark of a host x storage (issue 35) through ZStack's API, its long job and its schedule, the host
 * simulated by {@link BenchHostStandIn} (bench lines as host-bench.sh prints them; the room check and the final
 * clean call are the shipped script, run for real on a folder standing for the storage): a benchmark runs to
 * completion with its progress, is stored and shown by the query; a storage without room is refused before any run,
 * nothing stored; a cancel stops it between runs and the final call leaves no scratch file; bad requests are refused
 * with one sentence and change nothing; the schedule config runs nothing unless set.
 */
class AioIoModeBenchmarkCase extends AioCaseBase {
    BenchHostStandIn host = new BenchHostStandIn()
    String hostUuid, ps

    /** native beats io_uring at depth 32 for writes (the project's baseline, qcow2 full, 4K writes at depth 64) */
    static final Map<String, Long> IOPS = [
            "threads 1 write": 9000L, "native 1 write": 11000L, "io_uring 1 write": 12000L,
            "threads 32 write": 70100L, "native 32 write": 153000L, "io_uring 32 write": 105000L,
            "threads 1 read": 10000L, "native 1 read": 12500L, "io_uring 1 read": 13000L,
            "threads 32 read": 80000L, "native 32 read": 160000L, "io_uring 32 read": 150000L]

    @Override
    void environment() {
        env = AioEnvs.localStorage()
        host.iops = { String mode, int depth, String rw -> IOPS["${mode} ${depth} ${rw}".toString()] }
        host.install(env)
    }

    /** The states ZStack's DeleteLongJob accepts (its LongJobUtils' completed states). */
    static final List<LongJobState> ENDED = [LongJobState.Succeeded, LongJobState.Canceled, LongJobState.Failed]

    /**
     * A case that fails with a benchmark in flight leaves its long job unfinished, and the env's cleanup deletes it with
     * ZStack's DeleteLongJob, which refuses an unfinished job: the row would stay, and in the suite every later case
     * would fail on it ("didn't cleanup the environment ... LongJobVO"). So first the held run is released and every
     * unfinished job cancelled and waited for; one that still has not ended (ZStack itself could not end it) is marked
     * Failed, so that the env's delete removes it. A passing case has none left; this only keeps a failure its own.
     */
    @Override
    void clean() {
        host.release.countDown()
        List<String> open = unfinishedJobs()
        open.each { String uuid ->
            CancelLongJobAction c = new CancelLongJobAction()
            c.uuid = uuid
            c.sessionId = adminSession()
            def r = c.call()
            if (r.error != null) logger.warn("plugin-aio: cancelling the long job ${uuid} in the clean-up: ${r.error.details}")
        }
        for (int i = 0; i < 300 && !unfinishedJobs().isEmpty(); i++) sleep(100)
        List<String> stuck = unfinishedJobs()
        if (!stuck.isEmpty()) {
            logger.warn("plugin-aio: long job(s) ${stuck} did not end within 30 s of their cancel; marked Failed for the clean-up")
            SQL.New(LongJobVO.class).in(LongJobVO_.uuid, stuck).set(LongJobVO_.state, LongJobState.Failed).update()
        }
        super.clean()
    }

    private static List<String> unfinishedJobs() {
        return Q.New(LongJobVO.class).select(LongJobVO_.uuid).notIn(LongJobVO_.state, ENDED).listValues()
    }

    @Override
    void test() {
        env.create {
            hostUuid = env.inventoryByName("kvm").uuid
            ps = env.inventoryByName("local").uuid
            // a QEMU ZStack records that runs io_uring (the probe says the rest): the plan runs all three modes
            AioCaseSupport.qemuKvm(hostUuid, "8.2.0-13.el9")
            testBadRequestsAreRefusedWithASentenceAndChangeNothing()
            testAStorageWithoutRoomIsRefusedBeforeAnyRun()
            testTheScheduleRunsNothingUnlessSet()
            testALongJobRunsToCompletionWithProgressAndIsStoredAndShown()
            testACancelStopsItBetweenRunsAndLeavesNoFile()
        }
    }

    /** The module's classes join the test classpath only at run time (AioCaseSupport.decision says why): by name. */
    private static Class module(String simpleName) {
        return Class.forName("org.zstack.aio.zstack." + simpleName)
    }

    private static def bean(String simpleName) {
        return Platform.getComponentLoader().getComponent(module(simpleName))
    }

    private static int intervalHours() {
        return module("AioIoModeGlobalConfig").BENCHMARK_INTERVAL_HOURS.value(Integer.class)
    }

    private static long rows() {
        return SQL.New("select count(vo.hostUuid) from AioStorageBenchmarkVO vo", Long.class).find()
    }

    private static Date storedAt(String kind) {
        return SQL.New("select vo.lastOpDate from AioStorageBenchmarkVO vo where vo.imageKind = :k", Date.class).param("k", kind).find()
    }

    private def runBenchmark(Map<String, Object> params) {
        def a = AioCaseSupport.sdk("RunIoModeBenchmarkAction")
        a.hostUuid = hostUuid
        a.primaryStorageUuid = ps
        params.each { k, v -> a[k] = v }
        a.sessionId = adminSession()
        return a.call()
    }

    private List benchmarks(List<String> conditions) {
        def q = AioCaseSupport.sdk("QueryIoModeBenchmarkAction")
        q.conditions = conditions
        q.sessionId = adminSession()
        def r = q.call()
        assert r.error == null: r.error
        return r.value.inventories
    }

    private String refusal(Map<String, Object> params) {
        def r = runBenchmark(params)
        assert r.error != null: "refused: ${params}"
        assert r.error.code != "SYS.1000"
        return r.error.details
    }

    void testBadRequestsAreRefusedWithASentenceAndChangeNothing() {
        host.reset()
        long before = rows()
        // ZStack's own parameter checks
        String unknown = Platform.getUuid()
        def gone = runBenchmark([hostUuid: unknown]).error
        assert gone != null && gone.code != "SYS.1000" && gone.details.contains(unknown)
        // out-of-range limits, sent as a script would (the Java SDK refuses them itself before sending)
        for (Map<String, Object> p : [[budgetSeconds: 601], [budgetSeconds: 0], [runSecondsMax: 10], [runSecondsMax: -1]]) {
            AioRawApi.Answer a = AioRawApi.post(adminSession(), "hosts/${hostUuid}/io-mode-benchmarks",
                    [params: [primaryStorageUuid: ps] + p])
            assert a.isZStackError(): "${p}: ${a}"
            assert a.details().contains(p.keySet()[0] as String): "${p}: ${a}"
        }
        // a raw request as well as the SDK's gets the module's sentence
        AioRawApi.Answer raw = AioRawApi.post(adminSession(), "hosts/${hostUuid}/io-mode-benchmarks",
                [params: [primaryStorageUuid: ps, imageKind: "qcow2"]])
        assert raw.isZStackError() && raw.code() == "SYS.1007"
        assert raw.details() == "imageKind: an image kind is format-preallocation (qcow2-full), not 'qcow2'; give format-preallocation," +
                " e.g. qcow2-full, qcow2-metadata or raw-falloc."
        // the module's: one sentence each, saying what to do
        assert refusal([imageKind: "qcow2-sparse"]) == "imageKind: preallocation must be none, metadata, falloc or full," +
                " not 'sparse'; give format-preallocation, e.g. qcow2-full, qcow2-metadata or raw-falloc."
        assert refusal([imageKind: "qcow2-full", budgetSeconds: 20]) ==
                "a budget of 20 s cannot hold 12 runs of at least 2 s each; give a larger budgetSeconds (at most 600)."

        SQL.New(HostVO.class).eq(HostVO_.uuid, hostUuid).set(HostVO_.status, HostStatus.Disconnected).update()
        try {
            assert refusal([:]) == "Host kvm (${hostUuid}) is Disconnected; reconnect it (ReconnectHost) and run the benchmark again."
        } finally {
            SQL.New(HostVO.class).eq(HostVO_.uuid, hostUuid).set(HostVO_.status, HostStatus.Connected).update()
        }
        SQL.New(PrimaryStorageVO.class).eq(PrimaryStorageVO_.uuid, ps).set(PrimaryStorageVO_.type, "SharedBlock").update()
        try {
            assert refusal([:]) == "Primary storage local (${ps}) is SharedBlock: open-source ZStack 5.2.0 has no SharedBlock" +
                    " backend to make a scratch volume in, so the io-mode benchmark runs on LocalStorage and NFS only (docs/zstack-module.md)."
            SQL.New(PrimaryStorageVO.class).eq(PrimaryStorageVO_.uuid, ps).set(PrimaryStorageVO_.type, "Ceph").update()
            assert refusal([:]) == "Primary storage local (${ps}) is Ceph; the io-mode benchmark runs on LocalStorage and NFS" +
                    " primary storage only, whose directory on the host can hold its scratch image."
        } finally {
            SQL.New(PrimaryStorageVO.class).eq(PrimaryStorageVO_.uuid, ps).set(PrimaryStorageVO_.type, "LocalStorage").update()
        }
        // as a long job, refused alike before it is created
        SubmitLongJobAction s = new SubmitLongJobAction()
        s.jobName = "APIRunIoModeBenchmarkMsg"
        s.jobData = JSONObjectUtil.toJsonString([hostUuid: hostUuid, primaryStorageUuid: ps, imageKind: "vmdk-full"])
        s.sessionId = adminSession()
        def sr = s.call()
        assert sr.error != null && sr.error.details.startsWith("imageKind: image format must be qcow2 or raw, not 'vmdk'")
        assert rows() == before: "nothing stored"
        assert host.calls.isEmpty(): "nothing was sent to the host: ${host.calls}"
        assert host.files().isEmpty()
    }

    void testAStorageWithoutRoomIsRefusedBeforeAnyRun() {
        host.reset()
        host.freeMiB = 100
        long before = rows()
        String d = refusal([imageKind: "qcow2-full"])
        assert d == "/local_ps has 100 MiB free; the benchmark needs 1088 MiB (a 64 MiB scratch image and 1024 MiB left free)," +
                " so nothing was run or written."
        assert host.scratchCalls("room").size() == 1 && host.scratchCalls("room")[0].args == ["room", "/local_ps", "64", "1024"]
        assert host.benchRuns().isEmpty(): "no run"
        assert rows() == before: "nothing stored"
        assert benchmarks(["hostUuid=${hostUuid}".toString()]).isEmpty()
        assert host.files().isEmpty()
    }

    void testTheScheduleRunsNothingUnlessSet() {
        host.reset()
        def schedule = bean("BenchmarkSchedule")
        assert intervalHours() == 0
        assert schedule.checkDue() == 0
        assert host.calls.isEmpty()
        for (String bad : ["-1", "8761", "1.5", "often"]) {
            assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode.benchmark.intervalHours", bad) != null: bad
        }
        assert intervalHours() == 0

        assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode.benchmark.intervalHours", "24") == null
        try {
            assert schedule.checkDue() == 1
            String kind = "qcow2-" + LocalStoragePrimaryStorageGlobalConfig.QCOW2_ALLOCATION.value(String.class)
            eventually { benchmarks(["hostUuid=${hostUuid}".toString()]).size() == 1 }
            def b = benchmarks(["hostUuid=${hostUuid}".toString()])[0]
            assert b.imageKind == kind && b.outcome == "COMPLETE" && b.primaryStorageUuid == ps
            assert schedule.checkDue() == 0: "not due again within the interval"
        } finally {
            assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode.benchmark.intervalHours", "0") == null
        }
        assert host.scratchCalls("clean").size() == 1
        assert host.files().isEmpty()
    }

    void testALongJobRunsToCompletionWithProgressAndIsStoredAndShown() {
        host.reset()
        def job = submitBenchmark([hostUuid: hostUuid, primaryStorageUuid: ps, imageKind: "qcow2-full"])
        eventually { state(job.uuid) == LongJobState.Succeeded }
        // the room first, then each run, then the final clean call, all tagged with the job's uuid
        assert host.calls*.script == ["scratch"] + ["bench"] * 12 + ["scratch"]
        assert host.benchRuns().collect { it.args.subList(1, 4).join(" ") } == [
                "threads 1 write", "native 1 write", "io_uring 1 write", "threads 32 write", "native 32 write", "io_uring 32 write",
                "threads 1 read", "native 1 read", "io_uring 1 read", "threads 32 read", "native 32 read", "io_uring 32 read"]
        assert host.benchRuns().every { it.args[0] == "/local_ps" && it.args[4] == "4" && it.args[5] == "qcow2" && it.args[6] == "full" && it.args[9] == job.uuid }
        assert host.scratchCalls("clean")[0].args == ["clean", "/local_ps", job.uuid]
        // progress after each run, under the job's apiId (GetTaskProgress)
        List<String> progress = Q.New(TaskProgressVO.class).select(TaskProgressVO_.content).eq(TaskProgressVO_.apiId, job.apiId)
                .eq(TaskProgressVO_.type, TaskType.Progress).orderBy(TaskProgressVO_.id, org.zstack.core.db.SimpleQuery.Od.ASC).listValues()
        assert progress.take(12) == (1..12).collect { (it * 100).intdiv(12).toString() }

        // stored and shown
        def shown = benchmarks(["hostUuid=${hostUuid}".toString(), "imageKind=qcow2-full"])
        assert shown.size() == 1
        def b = shown[0]
        assert b.primaryStorageUuid == ps && b.outcome == "COMPLETE" && b.note == null && b.takenAt != null && b.createDate != null
        assert b.lines.size() == 12
        assert b.lines.contains("bench mode=native depth=32 rw=write iops=153000")
        assert b.lines.contains("bench mode=io_uring depth=32 rw=write iops=105000")
        assert benchmarks(["hostUuid=${hostUuid}".toString(), "outcome=FAILED"]).isEmpty()
        // what auto reads: one statement by host
        def newest = bean("BenchmarkStore").newest(hostUuid)
        assert newest*.kind()*.name().sort() == ["qcow2-full", "qcow2-" + LocalStoragePrimaryStorageGlobalConfig.QCOW2_ALLOCATION.value(String.class)].sort()
        def perf = newest.find { it.kind().name() == "qcow2-full" }.performance()
        def nativeMode = Enum.valueOf(Class.forName("org.zstack.aio.decision.IoMode"), "NATIVE")
        assert perf.cells().find { it.name() == "randwrite-4k-qd32" }.ops(nativeMode) == 153000d
        assert host.files().isEmpty()

        // the same called directly: the API answers when it has ended, and replaces the stored one
        Date first = storedAt("qcow2-full")
        sleep(1100)
        host.reset()
        def r = runBenchmark([imageKind: "qcow2-full"])
        assert r.error == null: r.error
        assert r.value.stored && r.value.inventory.outcome == "COMPLETE" && r.value.inventory.lines.size() == 12
        assert r.value.scratch == "no scratch file of this benchmark was left"
        assert benchmarks(["hostUuid=${hostUuid}".toString(), "imageKind=qcow2-full"]).size() == 1
        assert storedAt("qcow2-full").after(first)
    }

    void testACancelStopsItBetweenRunsAndLeavesNoFile() {
        host.reset()
        host.holdRun = 3
        host.leaveFile = [3] as Set // the run in flight loses its trap: only the final call can remove its file
        long before = rows()
        def job = submitBenchmark([hostUuid: hostUuid, primaryStorageUuid: ps, imageKind: "raw-full"])
        assert host.held.await(60, TimeUnit.SECONDS): "run 3 reached"
        // while it runs: a second benchmark of the same host x storage is refused, directly and as a long job
        assert refusal([imageKind: "qcow2-full"]) == "A benchmark of primary storage ${ps} on host ${hostUuid} is already running" +
                " (${job.uuid}); wait for it to end, or cancel it (CancelLongJob), then run it again."
        CancelLongJobAction c = new CancelLongJobAction()
        c.uuid = job.uuid
        c.sessionId = adminSession()
        assert c.call().error == null
        assert state(job.uuid) == LongJobState.Canceling: "waits for the run in flight"
        assert host.files().size() == 1 && host.files()[0].startsWith(".aio-bench.${job.uuid}.")
        host.release.countDown()
        eventually { state(job.uuid) == LongJobState.Canceled }
        assert host.benchRuns().size() == 3: "no run after the cancel"
        assert host.scratchCalls("clean").size() == 1 && host.scratchCalls("clean")[0].args == ["clean", "/local_ps", job.uuid]
        assert host.calls[-1].script == "scratch": "the clean call is the last"
        assert host.files().isEmpty(): "the final call removed the scratch file the run in flight left"
        String result = Q.New(LongJobVO.class).select(LongJobVO_.jobResult).eq(LongJobVO_.uuid, job.uuid).findValue()
        // cancelled while run 3 was in flight: 2 runs had ended, the third still ends and is kept
        assert result.contains("cancelled after 2 of 12 runs: cancelled by CancelLongJob")
        assert result.contains("1 scratch file(s) of this benchmark were left and are removed")
        // the runs made are stored, with the outcome saying so
        def b = benchmarks(["hostUuid=${hostUuid}".toString(), "imageKind=raw-full"])
        assert rows() == before + 1 && b.size() == 1
        assert b[0].outcome == "CANCELLED" && b[0].lines.size() == 3 && b[0].note == "cancelled after 2 of 12 runs: cancelled by CancelLongJob"
    }

    private def submitBenchmark(Map<String, String> data) {
        SubmitLongJobAction s = new SubmitLongJobAction()
        s.jobName = "APIRunIoModeBenchmarkMsg"
        s.jobData = JSONObjectUtil.toJsonString(data)
        s.targetResourceUuid = hostUuid
        s.sessionId = adminSession()
        def r = s.call()
        assert r.error == null: r.error
        return r.value.inventory
    }

    private static LongJobState state(String uuid) {
        return Q.New(LongJobVO.class).select(LongJobVO_.state).eq(LongJobVO_.uuid, uuid).findValue()
    }

    private static void eventually(Closure<Boolean> c) {
        for (int i = 0; i < 300; i++) {
            if (c()) return
            sleep(100)
        }
        assert c(): "not within 30 s"
    }
}
