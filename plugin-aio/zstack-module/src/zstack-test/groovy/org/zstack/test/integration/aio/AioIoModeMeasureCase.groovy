package org.zstack.test.integration.aio

import org.springframework.jdbc.core.JdbcTemplate
import org.zstack.core.db.DatabaseFacade
import org.zstack.core.db.Q
import org.zstack.header.volume.VolumeVO
import org.zstack.header.volume.VolumeVO_
import org.zstack.kvm.KvmRunShellMsg
import org.zstack.kvm.KvmRunShellReply
import org.zstack.sdk.UpdateGlobalConfigAction
import org.zstack.sdk.VmInstanceInventory
import org.zstack.sdk.VolumeInventory
import org.zstack.utils.data.SizeUnit

import java.time.Instant
import java.time.ZoneOffset
import java.time.format.DateTimeFormatter

/**
 * `auto` inside ZStack weighs what was measured (issue 35): the host × storage benchmark (rows as the benchmark stores
 * them in AioStorageBenchmarkVO) and each disk's observed workload, sampled by the module's periodic task through
 * KvmRunShellMsg (the simulator answers conf/aio/host-sample.sh with libvirt's `virsh list` and `virsh domstats --block`
 * output, two samples one interval apart) and folded with the core's fold into AioVolumeWorkloadVO.
 *
 * - bench lines where native beats io_uring at depth 32 for writes: a preallocated disk with a write-heavy, deep
 *   profile gets native, and the reason names the figures; a read-heavy depth-1 disk gets what wins that workload on
 *   these lines (threads: 14.2k against 11.9k and 11.1k reads at depth 1);
 * - without figures (the benchmark deleted, its change published): the fixed order, io_uring, and the reason says so;
 * - the sampled profile is shown on the volume's decision (GetVolumeIoModeDecision's workload).
 */
class AioIoModeMeasureCase extends AioCaseBase {
    static final String BENCHMARK_TABLE = "AioStorageBenchmarkVO"
    static final String TAKEN_AT = "2026-11-27T09:00:00.000Z"
    /** host-bench.sh's lines on a storage where native beats io_uring at depth 32 for writes (plugin-core's MeasuredStartTest) */
    static final String LINES = [
            "bench mode=threads depth=1 rw=write iops=12000",
            "bench mode=native depth=1 rw=write iops=11800",
            "bench mode=io_uring depth=1 rw=write iops=13300",
            "bench mode=threads depth=32 rw=write iops=70100",
            "bench mode=native depth=32 rw=write iops=153000",
            "bench mode=io_uring depth=32 rw=write iops=105000",
            "bench mode=threads depth=1 rw=read iops=14200",
            "bench mode=native depth=1 rw=read iops=11100",
            "bench mode=io_uring depth=1 rw=read iops=11900",
            "bench mode=threads depth=32 rw=read iops=84500",
            "bench mode=native depth=32 rw=read iops=126900",
            "bench mode=io_uring depth=32 rw=read iops=109700"].join("\n")
    static final long INTERVAL = 300
    static final long T0 = 1795772681L

    VmInstanceInventory vm
    String host, ps, writer, reader
    /** the counters the simulated host reports at its next sample: volume uuid -> [rdReqs, rdBytes, rdNs, wrReqs, wrBytes, wrNs] */
    Map<String, List<Long>> counters = [:]
    long clock = T0
    List<String> sampleScripts = Collections.synchronizedList([])

    @Override
    void environment() {
        env = AioEnvs.localStorage()
        // the one channel answers the probe (a capable host) and the sample (libvirt's outputs), told apart by script
        env.message(KvmRunShellMsg.class) { KvmRunShellMsg msg, bus ->
            KvmRunShellReply reply = new KvmRunShellReply()
            boolean sample = AioCaseSupport.isSample(msg.script)
            if (sample) sampleScripts.add(msg.script)
            reply.stdout = sample ? domstats() : AioCaseSupport.CAPABLE_HOST
            reply.stderr = ""
            reply.returnCode = 0
            bus.reply(msg, reply)
        }
    }

    /** conf/aio/host-sample.sh's output on the simulated host: the VM's disks with this sample's counters. */
    String domstats() {
        List<VolumeVO> vols = Q.New(VolumeVO.class).eq(VolumeVO_.vmInstanceUuid, vm.uuid).list()
        StringBuilder b = new StringBuilder("sample at=${clock}\n--- virsh list\n Id   Name   State\n-----------------------\n")
        b.append(" 4    ${vm.uuid}   running\n\n--- virsh domstats --block\nDomain: '${vm.uuid}'\n  block.count=${vols.size()}\n")
        vols.eachWithIndex { VolumeVO v, int i ->
            List<Long> c = counters[v.uuid] ?: [0L, 0L, 0L, 0L, 0L, 0L]
            b.append("  block.${i}.name=vd${(char) (97 + i)}\n  block.${i}.path=${v.installPath}\n")
            ["rd.reqs", "rd.bytes", "rd.times", "wr.reqs", "wr.bytes", "wr.times"].eachWithIndex { String k, int j ->
                b.append("  block.${i}.${k}=${c[j]}\n")
            }
        }
        return b.toString()
    }

    @Override
    void test() {
        env.create {
            vm = env.inventoryByName("vm") as VmInstanceInventory
            host = env.inventoryByName("kvm").uuid
            ps = env.inventoryByName("local").uuid
            List<String> data = (queryVolume { conditions = ["vmInstanceUuid=${vm.uuid}".toString(), "type=Data"] } as List<VolumeInventory>)*.uuid.sort()
            writer = data[0]
            reader = data[1]
            reconnectHost { uuid = host } // the probe's capable host
            AioCaseSupport.qemuKvm(host, "8.2.0-13.el9") // the simulator's own QEMU (4.2.0) refuses io_uring
            long size = SizeUnit.GIGABYTE.toByte(10)
            assert AioCaseSupport.setResourceConfig(adminSession(), "localStoragePrimaryStorage", "qcow2.allocation", ps, "full") == null
            assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", ps, "auto") == null
            [writer, reader].each { AioCaseSupport.actualSize(it, size + SizeUnit.MEGABYTE.toByte(2)) } // preallocated

            testTheIntervalConfig()
            testWithoutFiguresTheFixedOrder()
            testTwoSamplesMakeEachDisksProfile()
            testAutoPicksWhatWinsForEachDisksWorkload()
            testWithoutFiguresAgainTheFixedOrderAndItsReason()
            updateGlobalConfig { category = "kvm"; name = SAMPLE_INTERVAL; value = "300" }
        }
    }

    static final String SAMPLE_INTERVAL = "vm.ioMode.workload.sampleInterval"

    /** 0 turns the periodic sampling off (the case samples by hand); 1-9 s is refused with ZStack's error and why. */
    void testTheIntervalConfig() {
        updateGlobalConfig { category = "kvm"; name = SAMPLE_INTERVAL; value = "0" }
        ["5", "-1", "86401", "fast"].each { String bad ->
            UpdateGlobalConfigAction a = new UpdateGlobalConfigAction(category: "kvm", name: SAMPLE_INTERVAL, value: bad,
                    sessionId: adminSession())
            def err = a.call().error
            assert err != null: "kvm/${SAMPLE_INTERVAL} = ${bad} was accepted"
        }
        UpdateGlobalConfigAction five = new UpdateGlobalConfigAction(category: "kvm", name: SAMPLE_INTERVAL, value: "5", sessionId: adminSession())
        assert five.call().error.details.contains("must be 0 (sampling off) or from 10 to 86400 seconds, not 5")
        assert queryGlobalConfig { conditions = ["category=kvm", "name=${SAMPLE_INTERVAL}".toString()] }[0].value == "0"
    }

    static String iso(long epochSeconds) {
        return DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC).format(Instant.ofEpochSecond(epochSeconds))
    }

    Map<String, Map<String, String>> restart() {
        List starts = AioCaseSupport.recordStarts(env)
        stopVmInstance { uuid = vm.uuid }
        startVmInstance { uuid = vm.uuid }
        assert starts.size() == 1
        return AioHookRunner.run(starts[0])
    }

    def facts() {
        return bean(Class.forName("org.zstack.aio.zstack.AioIoFactsChanges"))
    }

    def change() {
        return Class.forName("org.zstack.aio.plugin.cache.IoFactsChange")
    }

    void testWithoutFiguresTheFixedOrder() {
        Map<String, Map<String, String>> disks = restart()
        assert disks[writer].io == "io_uring" && disks[reader].io == "io_uring"
        def d = AioCaseSupport.decision(adminSession(), writer)
        assert d.reason == "auto requested (PrimaryStorageVO) chose io_uring, the best mode in the preference order, whose" +
                " checks all passed (no benchmark figures of this storage for the volume's image kind)."
    }

    void testTwoSamplesMakeEachDisksProfile() {
        def sampler = bean(Class.forName("org.zstack.aio.zstack.AioWorkloadSampler"))
        counters[writer] = [1000L, 4096000L, 1000000000L, 9000L, 36864000L, 90000000000L]
        counters[reader] = [2000L, 8192000L, 2000000000L, 0L, 0L, 0L]
        assert sampler.sampleNow(30000) == 1
        assert sampleScripts.size() == 1
        def jdbc = new JdbcTemplate(bean(DatabaseFacade.class).dataSource)
        // the first sample is the baseline: a state, no profile yet
        assert jdbc.queryForObject("SELECT COUNT(*) FROM AioVolumeWorkloadVO WHERE volumeUuid IN (?, ?) AND profile IS NULL"
                + " AND counters IS NOT NULL", Integer.class, writer, reader) == 2

        // one interval later: the writer did 2700 4K writes/s and 300 reads/s with ~30 in flight, the reader 900 4K reads/s at depth 1
        clock += INTERVAL
        counters[writer] = add(counters[writer], [90000L, 90000L * 4096, 90L * 1000000000L, 810000L, 810000L * 4096, 8910L * 1000000000L])
        counters[reader] = add(counters[reader], [270000L, 270000L * 4096, 300L * 1000000000L, 0L, 0L, 0L])
        assert sampler.sampleNow(30000) == 1
        assert sampleScripts.size() == 2
        String profile = jdbc.queryForObject("SELECT profile FROM AioVolumeWorkloadVO WHERE volumeUuid = ?", String.class, writer)
        assert profile.contains("readFraction=0.1 ") && profile.contains("avgWriteBytes=4096.0 ") && profile.contains("avgQueueDepth=30.0 ")
        assert profile.endsWith("sampledAt=${iso(clock)}")
        // the root volume saw no request: a state, still no profile
        assert jdbc.queryForObject("SELECT COUNT(*) FROM AioVolumeWorkloadVO WHERE volumeUuid = ? AND profile IS NULL",
                Integer.class, vm.rootVolumeUuid) == 1
    }

    static List<Long> add(List<Long> a, List<Long> b) {
        return [a, b].transpose().collect { it[0] + it[1] }
    }

    void testAutoPicksWhatWinsForEachDisksWorkload() {
        JdbcTemplate jdbc = new JdbcTemplate(bean(DatabaseFacade.class).dataSource)
        AioCaseSupport.benchmarkTable(jdbc)
        jdbc.update("INSERT INTO ${BENCHMARK_TABLE} (hostUuid, primaryStorageUuid, imageKind, outcome, note, benchLines, takenAt,"
                + " createDate, lastOpDate) VALUES (?, ?, 'qcow2-full', 'COMPLETE', NULL, ?, ?, NOW(), NOW())", host, ps, LINES, TAKEN_AT)
        facts().publish(change().benchmark(host)) // as the benchmark does after storing

        Map<String, Map<String, String>> disks = restart()
        // write-heavy and deep on a preallocated disk: native, which beats io_uring at depth 32 for writes
        assert disks[writer].io == "native"
        def w = AioCaseSupport.decision(adminSession(), writer)
        assert w.requested == "auto" && w.effective == "native"
        assert w.reason.startsWith("auto requested (PrimaryStorageVO) chose native: best for this disk's observed workload (90 % 4K writes, depth ~30)")
        assert w.reason.contains("(expected native ") && w.reason.contains("on qcow2-full of this storage, taken ${TAKEN_AT})")
        assert w.optimizedFor.readFraction == 0.1d && w.optimizedFor.avgQueueDepth > 29 && w.optimizedFor.avgQueueDepth < 31
        assert w.workload.readFraction == 0.1d && w.workload.writeIops == 2700d
        // read-heavy at depth 1: what wins 4K reads at depth 1 on these lines, threads (14.2k; io_uring 11.9k, native 11.1k)
        assert disks[reader].io == "threads"
        def r = AioCaseSupport.decision(adminSession(), reader)
        assert r.effective == "threads" && r.reason.contains("observed workload (100 % 4K reads, depth ~1.0)")
        assert r.workload.readIops == 900d && r.workload.avgQueueDepth == 1d
    }

    void testWithoutFiguresAgainTheFixedOrderAndItsReason() {
        new JdbcTemplate(bean(DatabaseFacade.class).dataSource).update("DELETE FROM ${BENCHMARK_TABLE} WHERE hostUuid = ?", host)
        facts().publish(change().benchmark(host))
        Map<String, Map<String, String>> disks = restart()
        assert disks[writer].io == "io_uring" && disks[reader].io == "io_uring"
        def w = AioCaseSupport.decision(adminSession(), writer)
        assert w.reason.endsWith("(no benchmark figures of this storage for the volume's image kind).")
        assert w.workload.readFraction == 0.1d // the profile stays; without a benchmark it weighs nothing
    }
}
