package org.zstack.test.integration.aio

import org.zstack.header.vm.VmInstanceState
import org.zstack.header.vm.VmInstanceVO
import org.zstack.sdk.DiskOfferingInventory
import org.zstack.sdk.HostInventory
import org.zstack.sdk.StartVmInstanceAction
import org.zstack.sdk.VmInstanceInventory
import org.zstack.sdk.VolumeInventory
import org.zstack.utils.gson.JSONObjectUtil
import org.zstack.core.db.Q
import org.zstack.testlib.SkipTestSuite

/**
 * The module's decisions in QEMU processes started by ZStack's real agent (kvmagent 5.2.1, this machine's libvirt 9.0
 * and QEMU 7.2), for the operations the module touches: start, reboot, stop, destroy, hot-plug and detach (RealKvmAgent
 * forwards those; the rest stays simulated). Every disk's aio is read from the running QEMU (its command line, or for a
 * hot-plugged disk the blockdev-add QEMU acknowledged) and must equal the module's stored record. Also: a refusal
 * the real QEMU makes and its recovery, a real qemu-img benchmark that auto then weighs, and block devices through the
 * agent's block branch ({@link SharedBlockDeviceStandIn}). Not in the suite
 * (it needs root, libvirtd and the agent environment): bin/lib/zstack-cases.sh runs it after the suite.
 */
@SkipTestSuite
class AioIoModeRealAgentCase extends AioCaseBase {
    static final String WORK_DIR = "/var/tmp/aio-realagent"
    static final String PS_DIR = WORK_DIR + "/local_ps"
    RealKvmAgent agent = new RealKvmAgent()
    VmInstanceInventory vm
    String ps, host
    List<String> root, data
    /** every disk x operation checked in QEMU: "operation volume mode" */
    List<String> checked = []
    /** data volumes hot-plugged during the case, in order: native, io_uring (stock), then the patched agent's three */
    List<String> hotPlugged = []

    @Override
    protected List<String> extraSpringXml() {
        return ["AioSharedBlockStandIn.xml"]
    }

    @Override
    void environment() {
        new File(PS_DIR).mkdirs()
        env = RealAgentEnv.oneVm(PS_DIR)
    }

    @Override
    void test() {
        assert RealKvmAgent.configured(): "AioIoModeRealAgentCase needs the real agent: run it with bin/lib/zstack-cases.sh AioIoModeRealAgentCase"
        env.create {
            long t0 = System.currentTimeMillis()
            vm = env.inventoryByName("vm") as VmInstanceInventory
            ps = env.inventoryByName("local").uuid
            host = (env.inventoryByName("kvm") as HostInventory).uuid
            stopVmInstance { uuid = vm.uuid }   // simulated: the env's own start never reached the real agent
            agent.use(env, agent.stockUrl)
            agent.prepare = { Map volume ->
                List<String> image = lazyImages.remove(volume.volumeUuid)
                if (image != null) RealAgentDisks.make(volume.volumeUuid as String, image[0], image[1], volume.installPath as String)
            }
            agent.runHostScripts(env)
            probe("kvmagent_patch=no")          // the real probe of this machine, with the stock agent
            try {
                testStartEveryMode()
                testReboot()
                testNativeAioHotPlugLeavesTheOtherDisks()
                testStopStartAfterTheHotPlugs()
                testHotPlugThroughThePatchedAgent()
                testDetachEveryHotPluggedDisk()
                testRealRefusalReachesZStack()
                testRealBenchmarkFeedsAuto()
                testBlockDevicesAtStart()
                testDestroy()
            } finally {
                cleanUp()
            }
            logger.info("real-agent tier: ${checked.size()} disk x operation combinations checked in QEMU in " +
                    "${(System.currentTimeMillis() - t0) / 1000} s: ${checked}")
            // every step's disks: 4 + 4 + 2 + 6 + 3 + 4 (+ 4 with the recovery) + 4 + 6
            assert checked.size() >= (recoveryInstalled() ? 37 : 33)
        }
    }

    /** root qcow2 full native, data raw io_uring, data qcow2 metadata threads with cache writeback, data qcow2 off auto */
    void testStartEveryMode() {
        def v = queryVmInstance { conditions = ["uuid=${vm.uuid}"] }[0] as VmInstanceInventory
        root = [v.rootVolumeUuid]
        data = v.allVolumes*.uuid.findAll { it != v.rootVolumeUuid }.sort()
        assert data.size() == 3
        assert AioCaseSupport.setResourceConfig(adminSession(), "localStoragePrimaryStorage", "qcow2.allocation", ps, "full") == null
        RealAgentDisks.make(root[0], "qcow2", "full")
        RealAgentDisks.make(data[0], "raw", "off")
        RealAgentDisks.make(data[1], "qcow2", "metadata")
        RealAgentDisks.make(data[2], "qcow2", "off")
        mode(root[0], "native"); mode(data[0], "io_uring"); mode(data[1], "threads"); mode(data[2], "auto")
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.cacheMode", data[1], "writeback") == null

        startVmInstance { uuid = vm.uuid }
        Map<String, String> running = assertQemuRunsTheRecords("start", root + data)
        assert running[root[0]] == "native" && running[data[0]] == "io_uring" && running[data[1]] == "threads"
        assert AioCaseSupport.decision(adminSession(), data[2]).requested == "auto"
        assert agent.qemuDisks(vm.uuid)[RealAgentDisks.path(data[1])].direct == false   // writeback: no O_DIRECT
        String xml = RealKvmAgent.run("virsh", "-c", "qemu:///system", "dumpxml", vm.uuid)
        logger.info("real-agent tier: the agent's disks in libvirt: " + (xml =~ /(?s)<disk .*?<\/disk>/).collect { it }.join(" ").replaceAll(/\s+/, " "))
    }

    void testReboot() {
        Map<String, Map> before = agent.qemuDisks(vm.uuid)
        rebootVmInstance { uuid = vm.uuid }
        assertQemuRunsTheRecords("reboot", root + data)
        assert agent.qemuDisks(vm.uuid).collectEntries { p, d -> [p, d.aio] } == before.collectEntries { p, d -> [p, d.aio] }
    }

    /**
     * The stock agent's NativeAio addon at hot-plug sets io='native' on the attached disk only; at the VM's next start
     * the module decides every disk again and sends no NativeAio, so no other disk changes, live or after stop/start.
     */
    void testNativeAioHotPlugLeavesTheOtherDisks() {
        Map<String, String> before = aioByVolume(root + data)
        VolumeInventory nat = hotVolume("hot-native", "qcow2", "full", "native")
        VolumeInventory uring = hotVolume("hot-io_uring-stock", "qcow2", "off", "io_uring")
        attachDataVolumeToVm { vmInstanceUuid = vm.uuid; volumeUuid = nat.uuid }
        attachDataVolumeToVm { vmInstanceUuid = vm.uuid; volumeUuid = uring.uuid }
        assert sentAddons(nat.uuid).NativeAio == true && sentAddons(uring.uuid).NativeAio == null
        Map<String, String> hot = assertQemuRunsTheRecords("hot-plug(stock)", [nat.uuid, uring.uuid])
        assert hot[nat.uuid] == "native"
        // the stock agent cannot set io_uring at hot-plug: the record says what the disk really runs
        assert hot[uring.uuid] == AioCaseSupport.decision(adminSession(), uring.uuid).effective
        assert aioByVolume(root + data) == before
        hotPlugged.addAll([nat.uuid, uring.uuid])
    }

    /**
     * Stop and start with the hot-plugged disks attached: the module decides every disk again and sends no NativeAio, so
     * the VM's own disks run what they ran, the native disk stays native, and the io_uring disk now runs io_uring (the
     * start's hook sets it).
     */
    void testStopStartAfterTheHotPlugs() {
        Map<String, String> before = aioByVolume(root + data)
        stopVmInstance { uuid = vm.uuid }
        assert !agent.qemuRuns(vm.uuid)
        startVmInstance { uuid = vm.uuid }
        Map start = JSONObjectUtil.toObject(agent.exchanges.findAll { it[0] == "/vm/start" }.last()[1], LinkedHashMap.class)
        String hook = new String(Base64.decoder.decode(start.addons.userDefinedXmlHookScript as String), "UTF-8")
        String xml = RealKvmAgent.run("virsh", "-c", "qemu:///system", "dumpxml", vm.uuid)
        logger.info("real-agent tier: stop/start after the hot-plugs: data volumes sent " +
                (start.dataVolumes as List<Map>).collect { [it.volumeUuid, it.deviceType, it.useVirtioSCSI, it.installPath] } +
                "; the hook: " + hook.readLines().find { it.startsWith("aio_io_modes") } + "; libvirt's disks: " +
                (xml =~ /(?s)<disk .*?<\/disk>/).collect { it }.join(" ").replaceAll(/\s+/, " "))
        Map<String, String> running = assertQemuRunsTheRecords("stop/start after the hot-plugs", root + data + hotPlugged)
        assert aioByVolume(root + data) == before
        assert running[hotPlugged[0]] == "native" && running[hotPlugged[1]] == "io_uring"
    }

    /**
     * The agent detaches a disk only once the VM's QEMU has run 60 s (vm_plugin.py detach_data_volume:
     * _wait_vm_run_until_seconds(60), against a libvirt bug); ZStack's API would time out before. Waited for once.
     */
    void testDetachEveryHotPluggedDisk() {
        agent.waitQemuUptime(vm.uuid, 62)
        hotPlugged.each { String u ->
            detachDataVolumeFromVm { uuid = u }
            assert !agent.qemuDisks(vm.uuid).containsKey(path(u))
        }
        assert aioByVolume(root + data).values().every { it != null }
    }

    /** The optional kvmagent patch on the real vm_plugin.py: every mode at hot-plug through its aioIoMode addon. */
    void testHotPlugThroughThePatchedAgent() {
        agent.use(env, agent.patchedUrl)
        probe("kvmagent_patch=yes")
        Map<String, String> modes = [io_uring: "off", threads: "metadata", native: "full"]
        List<String> hot = modes.collect { m, pre -> hotVolume("hot-${m}-patched", "qcow2", pre, m).uuid }
        hot.each { String u -> attachDataVolumeToVm { vmInstanceUuid = vm.uuid; volumeUuid = u } }
        Map<String, String> running = assertQemuRunsTheRecords("hot-plug(patched)", hot)
        assert running.values().toList() == modes.keySet().toList()
        hotPlugged.addAll(hot)
        agent.use(env, agent.stockUrl)
        probe("kvmagent_patch=no")
    }

    /**
     * Reconnects the host: the module's probe runs on this machine as over SSH, and must have read it. The QEMU version
     * ZStack records for the host (KvmHypervisorInfoVO, from the agent's host facts: a simulated path, which says 4.2.0)
     * is set to this machine's, as libvirt reports it.
     */
    private void probe(String patchLine) {
        reconnectHost { uuid = host }
        String qemu = (RealKvmAgent.run("virsh", "-c", "qemu:///system", "version") =~ /Running hypervisor: QEMU ([0-9.]+)/)[0][1]
        AioCaseSupport.qemuKvm(host, qemu)
        def f = AioCaseSupport.hostFacts(adminSession(), host)
        assert f.probeFailure == null: "the module's probe failed on this host, run as ZStack's SSH runs it: ${f.probeFailure}"
        List<String> lines = (f.probeOutput as String).readLines()
        assert lines.contains("kernel=" + RealKvmAgent.run("uname", "-r").trim()) && lines.contains(patchLine)
    }

    /**
     * io_uring switched off after the probe (kernel.io_uring_disabled=2, restored at once): QEMU 7.2 refuses the
     * io_uring disk, the agent's start fails with QEMU's own words, and they reach ZStack's API. With the module's
     * recovery (issue 34: ClearRefusedIoModeAction in the SDK), the module recognises those words: the refusal is
     * remembered, the next start runs the disk on another mode in QEMU, and an admin's clear brings io_uring back.
     */
    void testRealRefusalReachesZStack() {
        File sysctl = new File("/proc/sys/kernel/io_uring_disabled")
        assert sysctl.exists(): "this kernel has no kernel.io_uring_disabled (Linux 6.6+)"
        assert AioCaseSupport.decision(adminSession(), data[0]).effective == "io_uring"
        // every io_uring disk of the VM (data[0] asked, data[2] auto): QEMU refuses the first it opens
        List<String> uring = (root + data).findAll { AioCaseSupport.decision(adminSession(), it).effective == "io_uring" }
        stopVmInstance { uuid = vm.uuid }
        String old = sysctl.text.trim()
        def failed
        try {
            sysctl.text = "2"
            failed = new StartVmInstanceAction(uuid: vm.uuid, sessionId: adminSession()).call().error
        } finally {
            sysctl.text = old
        }
        String answer = agent.exchanges.findAll { it[0] == "/vm/start" }.last()[2]
        assert answer.contains("\"success\": false") && answer.contains("Unable to use io_uring")
        assert failed != null: "the start with io_uring switched off did not fail"
        String details = "${failed.description} ${failed.details}"
        assert details.contains("Unable to use io_uring"): "ZStack's error does not carry the agent's words: ${failed}"
        assert dbFindByUuid(vm.uuid, VmInstanceVO.class).state == VmInstanceState.Stopped
        logger.info("real-agent tier: the agent answered the refused start with ${answer}; ZStack's API said: ${details}")

        if (!recoveryInstalled()) {
            startVmInstance { uuid = vm.uuid }   // nothing remembered: io_uring again, now that the host allows it
            assert assertQemuRunsTheRecords("start after the refusal", root + data)[data[0]] == "io_uring"
            return
        }
        String refused = uring.find { details.contains("(${it}) could not start with io_uring on host kvm (${host}): QEMU refused it") }
        assert refused != null: "the module's sentence names none of the io_uring disks ${uring}: ${details}"
        startVmInstance { uuid = vm.uuid }
        Map<String, String> recovered = assertQemuRunsTheRecords("start after the refusal (recovered)", root + data)
        // the refusal is the host x storage's: no disk of that storage runs io_uring until it is cleared
        assert uring.every { recovered[it] != "io_uring" }: recovered
        def d = AioCaseSupport.decision(adminSession(), refused)
        assert d.attempts.size() == 1 && d.attempts[0].io == "io_uring" && d.attempts[0].error.contains("Unable to use io_uring")
        def clear = AioCaseSupport.sdk("ClearRefusedIoModeAction")
        clear.hostUuid = host
        clear.primaryStorageUuid = ps
        clear.ioMode = "io_uring"
        clear.sessionId = adminSession()
        assert clear.call().error == null
        rebootVmInstance { uuid = vm.uuid }
        assert assertQemuRunsTheRecords("reboot after the admin's clear", root + data)[data[0]] == "io_uring"
    }

    /**
     * Issue 35 on the real host: the module's benchmark runs qemu-img bench for real in this machine's LocalStorage
     * directory, one KvmRunShellMsg per run (answered here by running the script, as the host's SSH would), stores the
     * figures, and the next start's auto weighs them: the reason names the measured figures, and QEMU runs the record.
     */
    void testRealBenchmarkFeedsAuto() {
        int scriptsBefore = agent.hostScripts.size()
        // as a long job: the runs take longer than one API call may wait in ZStack's test framework
        def submit = new org.zstack.sdk.SubmitLongJobAction()
        submit.jobName = "APIRunIoModeBenchmarkMsg"
        submit.jobData = JSONObjectUtil.toJsonString([hostUuid: host, primaryStorageUuid: ps, budgetSeconds: 60, runSecondsMax: 2])
        submit.targetResourceUuid = host
        submit.sessionId = adminSession()
        def submitted = submit.call()
        assert submitted.error == null: submitted.error
        String job = submitted.value.inventory.uuid
        long t0 = System.currentTimeMillis()
        org.zstack.header.longjob.LongJobState state = null
        for (int i = 0; i < 120 && !(state in ENDED); i++) {
            sleep(1000)
            state = Q.New(org.zstack.header.longjob.LongJobVO.class).select(org.zstack.header.longjob.LongJobVO_.state)
                    .eq(org.zstack.header.longjob.LongJobVO_.uuid, job).findValue()
        }
        logger.info("real-agent tier: the real benchmark's long job ended ${state} in ${(System.currentTimeMillis() - t0) / 1000} s")
        assert state == org.zstack.header.longjob.LongJobState.Succeeded
        def q = AioCaseSupport.sdk("QueryIoModeBenchmarkAction")
        q.conditions = ["hostUuid=${host}".toString(), "primaryStorageUuid=${ps}".toString()]
        q.sessionId = adminSession()
        List stored = q.call().value.inventories
        assert stored.size() == 1
        def b = stored[0]
        logger.info("real-agent tier: the real benchmark stored ${b.imageKind} ${b.outcome}: ${b.lines}")
        assert b.outcome == "COMPLETE" && b.imageKind == "qcow2-full": "${b.outcome} ${b.note}"
        List<String> lines = b.lines.findAll { it }
        assert lines.every { it ==~ /bench mode=(threads|native|io_uring) depth=(1|32) rw=(read|write) iops=[1-9][0-9]*/ }: lines
        // every mode this host allows (its kernel, QEMU 7.2 and libvirt 9 run all three) x depth 1, 32 x read, write
        assert lines.size() == 12 && lines.collect { (it =~ /mode=(\S+)/)[0][1] }.toSet() == ["threads", "native", "io_uring"] as Set
        List<List<String>> runs = agent.hostScripts.drop(scriptsBefore)
        assert runs.count { it[0].contains("qemu-img bench") || it[1].startsWith("bench mode=") } >= 12: "each run was one call to the host"
        assert new File(PS_DIR).listFiles().findAll { it.name.startsWith(".aio-bench") }.isEmpty(): "the scratch images were removed"

        rebootVmInstance { uuid = vm.uuid }
        def d = AioCaseSupport.decision(adminSession(), data[2])
        assert d.requested == "auto" && d.reason.contains("measured") && !d.reason.contains("no benchmark figures"): d.reason
        logger.info("real-agent tier: auto after the real benchmark: ${d.effective} (${d.reason})")
        assertQemuRunsTheRecords("reboot after the real benchmark", root + data)
    }

    /**
     * The agent's block branch (what a SharedBlock volume, an LV, reaches it as; here loop devices the case makes, sent
     * as block by {@link SharedBlockDeviceStandIn}): block_volume writes cache='none' io='native', and the module's hook
     * sets the decided mode on it at start. One block disk asked io_uring, one with no config (block's default).
     */
    void testBlockDevicesAtStart() {
        stopVmInstance { uuid = vm.uuid }
        List<String> blocks = ["io_uring", null].collect { String m ->
            VolumeInventory v = createDataVolume {
                delegate.name = "block-${m ?: 'default'}"
                diskOfferingUuid = (env.inventoryByName("disk") as DiskOfferingInventory).uuid
                primaryStorageUuid = ps
                systemTags = ["localStorage::hostUuid::${host}".toString()]
            } as VolumeInventory
            if (m != null) mode(v.uuid, m)
            File backing = new File(WORK_DIR, "block-${v.uuid}.img")
            RealKvmAgent.run("truncate", "-s", "64M", backing.path)
            String dev = RealKvmAgent.run("losetup", "--find", "--show", backing.path).trim()
            loops.add(dev)
            assert dev.startsWith("/dev/loop")
            SharedBlockDeviceStandIn.devices[v.uuid] = dev
            attachDataVolumeToVm { vmInstanceUuid = vm.uuid; volumeUuid = v.uuid }
            return v.uuid
        }
        startVmInstance { uuid = vm.uuid }
        Map start = JSONObjectUtil.toObject(agent.exchanges.findAll { it[0] == "/vm/start" }.last()[1], LinkedHashMap.class)
        assert (start.dataVolumes as List<Map>).findAll { it.volumeUuid in blocks }.every { it.deviceType == "block" && it.installPath.startsWith("/dev/loop") }
        String xml = RealKvmAgent.run("virsh", "-c", "qemu:///system", "dumpxml", vm.uuid)
        assert blocks.every { xml.contains("<source dev='${SharedBlockDeviceStandIn.devices[it]}'") }: "the agent wrote them as block disks"
        Map<String, String> running = assertQemuRunsTheRecords("start with block devices", root + data + blocks)
        assert running[blocks[0]] == "io_uring"
        // no config, on a LocalStorage-typed storage: the global value, threads, which the hook writes over the
        // agent's hard-coded native (on SharedBlock the kind's default, native, applies: AioIoModeSharedBlockCase)
        assert running[blocks[1]] == "threads"
        assert agent.qemuDisks(vm.uuid)[SharedBlockDeviceStandIn.devices[blocks[0]]].direct == true
        logger.info("real-agent tier: block disks: ${blocks.collect { [it, running[it], AioCaseSupport.decision(adminSession(), it).reason] }}")
    }

    /** loop devices the case made, detached in cleanUp */
    List<String> loops = []

    static final Set ENDED = [org.zstack.header.longjob.LongJobState.Succeeded, org.zstack.header.longjob.LongJobState.Failed,
                              org.zstack.header.longjob.LongJobState.Canceled] as Set

    private static boolean recoveryInstalled() {
        try {
            Class.forName("org.zstack.sdk.ClearRefusedIoModeAction")
            return true
        } catch (ClassNotFoundException ignored) {
            return false
        }
    }

    /** Destroys a VM left running and removes the images; a failure here is logged, never thrown. */
    private void cleanUp() {
        try {
            if (vm != null && agent.qemuRuns(vm.uuid)) destroyVmInstance { uuid = vm.uuid }
        } catch (Throwable t) {
            logger.warn("real-agent tier: could not destroy the VM: ${t.message}")
            RealKvmAgent.run("sh", "-c", "virsh -c qemu:///system destroy ${vm.uuid} >/dev/null 2>&1; true".toString())
        }
        loops.each { RealKvmAgent.run("sh", "-c", "losetup -d ${it} 2>/dev/null; true".toString()) }
        SharedBlockDeviceStandIn.devices.clear()
        new File(WORK_DIR).deleteDir()   // the images (ZStack's deletions of them are simulated)
    }

    void testDestroy() {
        destroyVmInstance { uuid = vm.uuid }
        assert !agent.qemuRuns(vm.uuid)
    }

    private VolumeInventory hotVolume(String name, String format, String preallocation, String ioMode) {
        VolumeInventory v = createDataVolume {
            delegate.name = name
            diskOfferingUuid = (env.inventoryByName("disk") as DiskOfferingInventory).uuid
            primaryStorageUuid = ps
            systemTags = ["localStorage::hostUuid::${host}".toString(), "capability::virtio-scsi"]
        } as VolumeInventory
        // ZStack instantiates the volume on the host (simulated) at its first attach; its image is made then, before the
        // attach command reaches the agent
        lazyImages[v.uuid] = [format, preallocation]
        mode(v.uuid, ioMode)
        return v
    }

    private void mode(String volumeUuid, String mode) {
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", volumeUuid, mode) == null
    }

    private Map sentAddons(String volumeUuid) {
        Map cmd = agent.exchanges.findAll { it[0] == "/vm/attachdatavolume" }
                .collect { JSONObjectUtil.toObject(it[1], LinkedHashMap.class) }.findAll { it.volume.volumeUuid == volumeUuid }.last()
        return (cmd.addons ?: [:]) as Map
    }

    /** volume -> [format, preallocation] of images made when a command first names the volume */
    Map<String, List<String>> lazyImages = [:]

    /** The image QEMU opens for the volume: its block device when the case made it one, else its file. */
    private static String path(String volumeUuid) {
        return SharedBlockDeviceStandIn.devices[volumeUuid] ?: RealAgentDisks.path(volumeUuid)
    }

    private Map<String, String> aioByVolume(List<String> volumes) {
        Map<String, Map> disks = agent.qemuDisks(vm.uuid)
        return volumes.collectEntries { [it, disks[path(it)]?.aio] }
    }

    /** Each volume's aio in the running QEMU equals the module's stored record; returns volume -> aio. */
    private Map<String, String> assertQemuRunsTheRecords(String operation, List<String> volumes) {
        Map<String, String> running = aioByVolume(volumes)
        volumes.each { String u ->
            def d = AioCaseSupport.decision(adminSession(), u)
            assert running[u] != null: "${operation}: QEMU has no disk ${path(u)}: ${agent.qemuDisks(vm.uuid)}"
            assert running[u] == d.effective: "${operation}: volume ${u} runs ${running[u]} in QEMU, the module recorded ${d.effective} (${d.reason})"
            checked.add("${operation} ${u} ${running[u]}".toString())
        }
        // the module's own read-back of this real host (issue 34: virsh dumpxml and QEMU's log, off the operation's
        // path) finds what QEMU runs, for every disk
        retryInSecs(30) {
            volumes.each { String u ->
                def d = AioCaseSupport.decision(adminSession(), u)
                assert d.runningIo == running[u]: "${operation}: the read-back of ${u} says ${d.runningIo}, QEMU runs ${running[u]}"
            }
        }
        return running
    }
}
