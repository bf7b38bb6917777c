package org.zstack.test.integration.aio

import org.springframework.jdbc.core.JdbcTemplate
import org.zstack.header.vm.VmInstanceState
import org.zstack.header.vm.VmInstanceVO
import org.zstack.kvm.KVMAgentCommands
import org.zstack.sdk.DiskOfferingInventory
import org.zstack.sdk.HostInventory
import org.zstack.sdk.ImageInventory
import org.zstack.sdk.InstanceOfferingInventory
import org.zstack.sdk.L3NetworkInventory
import org.zstack.sdk.VmInstanceInventory
import org.zstack.utils.Utils
import org.zstack.utils.logging.CLogger

import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLong

/**
 * What the module costs a VM start (issue 27, "Cost"), on LocalStorage with the KVM simulator answering the agent:
 *
 * - the SQL statements the module sends per start, counted at the JDBC level ({@link ModuleSqlCounter}) for VMs with
 *   1, 4 and 8 data volumes on LocalStorage and 4 on NFS (plus the root volume on LocalStorage): at most 3, the same
 *   whatever the number of disks and storage types (the host's facts, benchmarks, profiles and config rows from the
 *   node's memory): 3 at a VM's creation (its new volumes' config rows and profiles), 1 (the decisions' write) at
 *   every start after, also right after the host's probe (the listener reads the host again off the start); 2 after
 *   an admin set or deleted a config on one of its volumes, on this node or on another (ZStack's own event), the new
 *   value decided; on a node that kept nothing, 5 once; none with the module taken out of ZStack's
 *   PluginRegistry ({@link ModuleSwitch}). The decisions' write is queued off the start's thread (issue 35): each
 *   counting window waits for it ({@link #written}) and counts it as the start's. The read-back after a start (issue
 *   34) runs on another thread once the host answers: its statements are not the start's and are listed apart, with
 *   sampling's;
 * - the wall time of ZStack's StartVmInstance API, module on and module off (its extensions out of the registry),
 *   interleaved rounds (the arm that goes first alternates), VMs with 4 data volumes. The figures are logged
 *   ("aio-cost:" lines) and written down in docs/performance.md; what is asserted is that they were produced and that
 *   each arm ran what it claims (the start command carries the module's hook only with the module on), not a timing a
 *   shared 2-CPU machine cannot hold. With the module on, the time spent inside its start extension is measured too
 *   ({@link ModuleSwitch#timingStarts}): the module's own share of a start, far less noisy than a difference of two
 *   noisy wall times.
 *
 * Rounds: 8 by default (CI); more with -Daio.cost.rounds=N or the environment variable AIO_COST_ROUNDS=N.
 */
class AioIoModeCostCase extends AioCaseBase {
    private static final CLogger logger = Utils.getLogger(AioIoModeCostCase.class)
    static final String HOOK_ADDON = "userDefinedXmlHookScript"
    static final String DECISION_TABLE = "AioVolumeIoModeDecisionVO"
    static final String HOST_FACTS_TABLE = "AioHostIoFactsVO"
    static final String BENCHMARK_TABLE = "AioStorageBenchmarkVO"
    static final String WORKLOAD_TABLE = "AioVolumeWorkloadVO"
    /** VMs started per arm and round */
    static final int AB_VMS = 2
    static final int AB_DATA_VOLUMES = 4

    String host, l3, image, offering, disk, local, nfs
    ModuleSwitch module

    @Override
    void environment() {
        env = AioEnvs.localStorageAndNfs()
    }

    @Override
    void test() {
        env.create {
            host = (env.inventoryByName("kvm") as HostInventory).uuid
            l3 = (env.inventoryByName("l3") as L3NetworkInventory).uuid
            image = (env.inventoryByName("image") as ImageInventory).uuid
            offering = (env.inventoryByName("instanceOffering") as InstanceOfferingInventory).uuid
            disk = (env.inventoryByName("diskOffering") as DiskOfferingInventory).uuid
            local = env.inventoryByName("local").uuid
            nfs = env.inventoryByName("nfs").uuid
            module = new ModuleSwitch()
            // no sampling round in the middle of a counted start (its statements would be listed apart anyway)
            updateGlobalConfig { category = "kvm"; name = "vm.ioMode.workload.sampleInterval"; value = "0" }
            try {
                testQueriesPerStart()
                testStartTimeWithAndWithoutTheModule()
            } finally {
                if (module.isOff()) module.on()
                updateGlobalConfig { category = "kvm"; name = "vm.ioMode.workload.sampleInterval"; value = "300" }
            }
        }
    }

    static int rounds() {
        String n = System.getProperty("aio.cost.rounds") ?: System.getenv("AIO_COST_ROUNDS")
        int r = n == null ? 8 : Integer.parseInt(n.trim())
        assert r >= 8: "aio.cost.rounds=${r}: the A/B runs at least 8 rounds"
        return r
    }

    /** A VM on the host, its root volume on LocalStorage, its data volumes on {@code dataPs}. */
    VmInstanceInventory vm(String name, int dataVolumes, String dataPs) {
        return createVmInstance {
            delegate.name = name
            instanceOfferingUuid = offering
            imageUuid = image
            l3NetworkUuids = [l3]
            hostUuid = host
            primaryStorageUuidForRootVolume = local
            dataDiskOfferingUuids = [disk] * dataVolumes
            systemTags = ["primaryStorageUuidForDataVolume::${dataPs}".toString()]
        } as VmInstanceInventory
    }

    /**
     * Waits for the start's records, which the module writes off the start's thread: the window then holds that write
     * too (counted for the module, as the start's statement it is).
     */
    void written() {
        bean(Class.forName("org.zstack.aio.zstack.IoModeDecisionStore")).awaitAllWrites()
    }

    void restart(String vmUuid) {
        stopVmInstance { uuid = vmUuid }
        assert dbFindByUuid(vmUuid, VmInstanceVO.class).state == VmInstanceState.Stopped
    }

    /** The module's statements in the first start of new VMs (their creation) and in two starts after, by VM. */
    Map<String, List<ModuleSqlCounter.Window>> countStarts(ModuleSqlCounter counter, Map<String, List> vms) {
        Map<String, List<ModuleSqlCounter.Window>> out = [:]
        vms.each { String name, List spec ->
            int n = spec[0] as int
            String dataPs = spec[1] as String
            VmInstanceInventory v = null
            ModuleSqlCounter.Window created = counter.count { v = vm("cost-${name}", n, dataPs); written() }
            assert v.allVolumes.size() == n + 1
            Set<String> storages = v.allVolumes.collect { it.primaryStorageUuid } as Set
            assert storages == ([local, dataPs] as Set): "${name}: the volumes' primary storages"
            // two starts more, with the VM's decisions stored and its volumes' profiles in memory
            out[name] = [created] + (1..2).collect {
                restart(v.uuid)
                counter.count { startVmInstance { uuid = v.uuid }; written() }
            }
        }
        return out
    }

    void testQueriesPerStart() {
        ModuleSqlCounter counter = new ModuleSqlCounter()
        // root + 1, 4, 8 data volumes on LocalStorage; root on LocalStorage + 4 data volumes on NFS (two storage types)
        Map<String, List<ModuleSqlCounter.Window>> byVm = countStarts(counter,
                ["local+1": [1, local], "local+4": [4, local], "local+8": [8, local], "local+4nfs": [4, nfs]])
        byVm.each { name, windows ->
            windows.eachWithIndex { w, i ->
                log("aio-cost: ${i == 0 ? 'creation (first start)' : 'start ' + (i + 1)} of the VM ${name}: ${w.module.size()} statements by the module, ${w.offPath.size()} off the start's path, ${w.all} by everyone in the node meanwhile")
            }
        }
        ["local+8", "local+4nfs"].each { String name ->
            byVm[name].eachWithIndex { w, i ->
                log("aio-cost: the module's statements in start ${i + 1} of ${name}:")
                w.module.each { log("aio-cost:   " + (it.length() > 160 ? it.substring(0, 160) + "..." : it)) }
            }
        }

        byVm.each { name, windows ->
            windows.each { w ->
                assert w.module.size() <= 3: "${name}: ${w.module}"
                // all the disks' decisions in one statement; the host's facts and benchmarks from the node's memory
                assert w.module.count { it.contains(DECISION_TABLE) } == 1
                assert !w.module.any { it.contains(HOST_FACTS_TABLE) || it.contains(BENCHMARK_TABLE) }: w.module
            }
            // the creation's start reads the new volumes' config rows and profiles (none yet: kept as such), the
            // starts after only write the decisions
            assert windows[0].module.size() == 3 && windows[0].module.count { it.contains(WORKLOAD_TABLE) } == 1
            assert windows[0].module.count { it.contains("PrimaryStorageVO") && it.contains("ResourceConfigVO") } == 1
            assert windows[1].module.size() == 1 && windows[2].module.size() == 1: "${name}: ${windows*.module}"
        }

        testAConfigChangeIsReadOnceOnEveryNode(counter)

        // a probe (the host's reconnect) drops its facts on every node; the listener reads them again off any start
        def cache = bean(Class.forName("org.zstack.aio.plugin.cache.IoFactsCache"))
        String vmUuid = vm("cost-after-probe", 4, local).uuid
        long reads = cache.reads()
        reconnectHost { uuid = host }
        retryInSecs { assert cache.reads() >= reads + 1 } // the host's facts, read again by the listener
        restart(vmUuid)
        ModuleSqlCounter.Window afterProbe = counter.count { startVmInstance { uuid = vmUuid }; written() }
        log("aio-cost: first start after the host's probe: ${afterProbe.module.size()} statements by the module")
        assert afterProbe.module.size() == 1 && !afterProbe.module.any { it.contains(HOST_FACTS_TABLE) }

        // a node that kept nothing (everything dropped, as a node that never heard of the host): the first start reads
        // the host's facts, its benchmarks, the config rows and the profiles once, the next one nothing of them
        AioCaseSupport.forgetKeptFacts()
        List<ModuleSqlCounter.Window> cold = (1..2).collect {
            restart(vmUuid)
            counter.count { startVmInstance { uuid = vmUuid }; written() }
        }
        log("aio-cost: a node with nothing in memory: ${cold[0].module.size()} statements at its first start on the host, then ${cold[1].module.size()}")
        cold[0].module.each { log("aio-cost:   " + (it.length() > 160 ? it.substring(0, 160) + "..." : it)) }
        assert cold[0].module.size() == 5
        assert cold[0].module.count { it.contains(HOST_FACTS_TABLE) } == 1 && cold[0].module.count { it.contains(BENCHMARK_TABLE) } == 1
        assert cold[1].module.size() == 1

        // with the module out of the registry the counter still sees ZStack's own statements, and none of the module
        restart(vmUuid)
        module.off()
        ModuleSqlCounter.Window off
        try {
            off = counter.count { startVmInstance { uuid = vmUuid }; written() }
        } finally {
            module.on()
        }
        log("aio-cost: start with the module off: ${off.module.size()} statements by the module, ${off.all} by everyone")
        assert off.module.isEmpty()
        assert off.all > 0
    }

    /**
     * A config an admin sets or deletes on a volume drops that volume's rows on every node: here through the API (this
     * node's ResourceConfig extensions publish the change), then as another node's change arrives (the row written or
     * deleted by that node, then the module's event CONFIGS <volume> from it). Each time the next start reads that volume's rows
     * once (2 statements) and decides the new value; the start after reads nothing again.
     */
    void testAConfigChangeIsReadOnceOnEveryNode(ModuleSqlCounter counter) {
        VmInstanceInventory v = queryVmInstance { conditions = ["name=cost-local+4"] }[0] as VmInstanceInventory
        String volume = v.allVolumes.find { it.uuid != v.rootVolumeUuid }.uuid
        Closure<List<ModuleSqlCounter.Window>> twoStarts = {
            (1..2).collect {
                restart(v.uuid)
                counter.count { startVmInstance { uuid = v.uuid }; written() }
            }
        }
        Closure check = { String how, String requested ->
            List<ModuleSqlCounter.Window> w = twoStarts()
            log("aio-cost: after a config change (${how}): ${w[0].module.size()} statements at the next start, then ${w[1].module.size()}")
            assert w[0].module.size() == 2 && w[0].module.count { it.contains("ResourceConfigVO") } == 1: "${how}: ${w[0].module}"
            assert w[1].module.size() == 1: "${how}: ${w[1].module}"
            assert AioCaseSupport.decision(adminSession(), volume).requested == requested: how
        }

        String before = AioCaseSupport.decision(adminSession(), volume).requested
        // auto and threads pass the module's validation on any volume (native wants a preallocated image here)
        List<String> others = ["auto", "threads", "native"] - [before]
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", volume, others[0]) == null
        check("UpdateResourceConfig on this node", others[0])
        deleteResourceConfig { category = "kvm"; name = "vm.ioMode"; resourceUuid = volume }
        check("DeleteResourceConfig on this node", before)

        // another node's UpdateResourceConfig, then its DeleteResourceConfig: ZStack there writes the row, and the
        // module there publishes CONFIGS <volume> on /aio/ioMode/factsChanged (ZStack's own event of a delete does not
        // reach the other nodes in 5.2.0); this node must drop the volume's rows when that event arrives
        def cache = bean(Class.forName("org.zstack.aio.plugin.cache.IoFactsCache"))
        Closure otherNodeChanged = {
            assert cache.keepsConfigRows(volume)
            bean(org.zstack.core.cloudbus.EventFacade.class).fire(
                    Class.forName("org.zstack.aio.zstack.AioIoFactsChanges").PATH as String, "CONFIGS ${volume}".toString())
            retryInSecs { assert !cache.keepsConfigRows(volume) }
        }
        JdbcTemplate jdbc = new JdbcTemplate(bean(org.zstack.core.db.DatabaseFacade.class).dataSource)
        jdbc.update("INSERT INTO ResourceConfigVO (uuid, name, description, category, value, resourceUuid, resourceType,"
                + " lastOpDate, createDate) VALUES (REPLACE(UUID(), '-', ''), 'vm.ioMode', '', 'kvm', ?, ?, 'VolumeVO', NOW(), NOW())",
                others[1], volume)
        otherNodeChanged()
        check("UpdateResourceConfig on another node", others[1])
        jdbc.update("DELETE FROM ResourceConfigVO WHERE category = 'kvm' AND name = 'vm.ioMode' AND resourceUuid = ?", volume)
        otherNodeChanged()
        check("DeleteResourceConfig on another node", before)
    }

    void testStartTimeWithAndWithoutTheModule() {
        int rounds = rounds()
        List<String> vms = (1..AB_VMS).collect { vm("ab-${it}", AB_DATA_VOLUMES, local).uuid }
        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        Map<Boolean, List<Double>> ms = [(true): [], (false): []]
        List<Double> inModule = []
        List<Double> paired = []
        AtomicLong spent = new AtomicLong()
        // the module's time per start in its two parts: deciding (the read, the core, the hook) and storing (the write)
        Map<String, AtomicLong> byMethod = new ConcurrentHashMap<String, AtomicLong>()
        Map<String, List<Double>> parts = [:].withDefault { [] }
        // round 0 warms both paths up (JIT, caches) and is not counted
        (0..rounds).each { int round ->
            Map<Boolean, List<Double>> thisRound = [(true): [], (false): []]
            List<Double> thisRoundInModule = []
            List<Boolean> order = round % 2 == 0 ? [true, false] : [false, true]
            order.each { boolean on ->
                Closure arm = {
                    vms.each { String vmUuid ->
                        restart(vmUuid)
                        starts.clear()
                        spent.set(0)
                        byMethod.clear()
                        long t0 = System.nanoTime()
                        startVmInstance { uuid = vmUuid }
                        thisRound[on].add((System.nanoTime() - t0) / 1e6d)
                        if (on) {
                            thisRoundInModule.add(spent.get() / 1e6d)
                            if (round > 0) byMethod.each { String m, AtomicLong ns -> parts[m].add(ns.get() / 1e6d) }
                        }
                        assert starts.size() == 1
                        // the arm ran what it claims: the module's hook is in the command only with the module on
                        assert starts[0].addons.containsKey(HOOK_ADDON) == on
                    }
                }
                if (on) {
                    module.timingStarts(spent, arm, byMethod)
                } else {
                    module.off()
                    try {
                        arm()
                    } finally {
                        module.on()
                    }
                }
            }
            if (round == 0) return
            ms[true].addAll(thisRound[true])
            ms[false].addAll(thisRound[false])
            inModule.addAll(thisRoundInModule)
            paired.add(Timings.median(thisRound[true]) / Timings.median(thisRound[false]) - 1)
        }

        Timings on = new Timings(ms[true]), off = new Timings(ms[false])
        log("aio-cost: StartVmInstance wall time, ${rounds} interleaved rounds (+1 warm-up), ${AB_VMS} VMs x (root + ${AB_DATA_VOLUMES} data volumes) per arm and round, LocalStorage, simulator")
        log("aio-cost: module on:  ${on}")
        log("aio-cost: module off: ${off}")
        Timings own = new Timings(inModule)
        log("aio-cost: time spent in the module's start extension per start (module on): ${own}")
        parts.each { String m, List<Double> v -> log("aio-cost:   of which ${m}: ${new Timings(v)}") }
        log(String.format("aio-cost: the module's own time, median %.2f ms, is %.2f%% of the module-off median start", own.median, own.median / off.median * 100))
        log(String.format("aio-cost: median on/off %+.1f%%; per-round median on/off: median %+.1f%%, min %+.1f%%, max %+.1f%%",
                (on.median / off.median - 1) * 100, Timings.median(paired) * 100, paired.min() * 100, paired.max() * 100))
        assert on.n == rounds * AB_VMS && off.n == rounds * AB_VMS
        assert on.median > 0 && off.median > 0
        assert own.n == on.n && own.median > 0 && own.median < on.median
    }

    private static void log(String line) {
        logger.info(line)
        System.out.println(line)
    }
}
