package org.zstack.test.integration.aio

import org.springframework.http.HttpEntity
import org.springframework.jdbc.core.JdbcTemplate
import org.zstack.core.ansible.AnsibleFacade
import org.zstack.core.cloudbus.CanonicalEvent
import org.zstack.core.cloudbus.EventCallback
import org.zstack.core.cloudbus.EventFacade
import org.zstack.core.db.DatabaseFacade
import org.zstack.header.vm.VmInstanceState
import org.zstack.header.vm.VmInstanceVO
import org.zstack.header.volume.VolumeVO
import org.zstack.kvm.KvmRunShellMsg
import org.zstack.sdk.DiskOfferingInventory
import org.zstack.sdk.ImageInventory
import org.zstack.sdk.InstanceOfferingInventory
import org.zstack.sdk.L3NetworkInventory
import org.zstack.sdk.VmInstanceInventory
import org.zstack.sdk.VolumeInventory
import org.zstack.utils.gson.JSONObjectUtil

import java.nio.file.Files

/**
 * The read-back (issue 34) through ZStack's KvmRunShellMsg, the simulated host printing what a host prints for the
 * module's own command (SimulatedLibvirt: libvirt's dumpxml of the domain the agent was sent, through the start's
 * hook, and the VM's QEMU log): after a start each disk's record gains what it runs and when, with no disagreement where
 * it runs its decision; a disk that does not (QEMU wrote that io_uring fell back to its thread pool; a driver without
 * the io the decision set) gets the core's sentence on its record, in GetVolumeIoModeDecision and
 * QueryVolumeIoModeDecision, once in the log, and as the canonical event /aio/ioMode/disagreement (to a subscriber and
 * to an admin's CanonicalEvent webhook); a host's reconnect reads back every VM running there in one call; a hot-plug
 * whose record the database refuses still succeeds, says so, and the next read-back stores the record; a host without
 * that no longer takes its stored password is read with ZStack's own SSH key.
 */
class AioIoModeReadBackCase extends AioCaseBase {
    static final String PATH = "/aio/ioMode/disagreement"
    static final String WEBHOOK_PATH = "/aio-disagreement-webhook"
    static final String FALLBACK = "2026-11-27T10:00:01.123456Z qemu-kvm: warning: Unable to use linux io_uring, falling back to thread pool: Operation not permitted"

    SimulatedLibvirt libvirt
    String host, root, data1, data2
    VmInstanceInventory vm
    final List<Map> events = Collections.synchronizedList([])
    final List<CanonicalEvent> hooked = Collections.synchronizedList([])
    EventCallback subscriber

    @Override
    void environment() {
        env = AioEnvs.localStorage()
        AioCaseSupport.answerProbe(env) { String hostUuid -> AioCaseSupport.CAPABLE_HOST }
    }

    @Override
    void clean() {
        if (subscriber != null) bean(EventFacade.class).off(subscriber)
        libvirt?.delete()
        super.clean()
    }

    @Override
    void test() {
        env.create {
            vm = env.inventoryByName("vm") as VmInstanceInventory
            host = env.inventoryByName("kvm").uuid
            root = vm.rootVolumeUuid
            List<String> data = (queryVolume { conditions = ["vmInstanceUuid=${vm.uuid}".toString(), "type=Data"] } as List<VolumeInventory>)*.uuid.sort()
            data1 = data[0]
            data2 = data[1]
            AioCaseSupport.qemuKvm(host, "8.2.0-13.el9")
            libvirt = new SimulatedLibvirt(env, host)
            subscriber = new EventCallback() {
                @Override
                protected void run(Map tokens, Object content) {
                    events.add(JSONObjectUtil.toObject(JSONObjectUtil.toJsonString(content), LinkedHashMap.class))
                }
            }
            bean(EventFacade.class).on(PATH, subscriber)
            assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", data1, "io_uring") == null

            testAStartThatRunsItsDecisionsIsRecordedSo()
            testQemusFallbackIsADisagreement()
            testADriverWithoutTheDecidedIoIsADisagreement()
            testAReconnectReadsBackEveryRunningVmInOneCall()
            testAHotPlugWhoseRecordCannotBeStoredStillSucceeds()
            testAHostThatNoLongerTakesItsPasswordIsReadWithZStacksKey()
        }
    }

    /** Restarts the VM and waits for the read-back after its start to be stored on every disk. */
    private void restart(String vmUuid, List<String> volumes) {
        Map<String, String> before = volumes.collectEntries { [(it): AioCaseSupport.decision(adminSession(), it)?.readBackAt] }
        stopVmInstance { uuid = vmUuid }
        startVmInstance { uuid = vmUuid }
        assert dbFindByUuid(vmUuid, VmInstanceVO.class).state == VmInstanceState.Running
        readBackOf(volumes, before)
    }

    /** Waits until each volume's record was read back after {@code before} (its readBackAt then). */
    private void readBackOf(List<String> volumes, Map<String, String> before) {
        retryInSecs(30) {
            volumes.each { String v ->
                def d = AioCaseSupport.decision(adminSession(), v)
                assert d.readBackAt != null && d.readBackAt != before[v]: "volume ${v} not read back yet"
            }
        }
    }

    void testAStartThatRunsItsDecisionsIsRecordedSo() {
        // the log of an earlier run has the fallback; the read-back takes the log since the last start only
        libvirt.logs[vm.uuid] = SimulatedLibvirt.startingUp(vm.uuid, 0) + FALLBACK + "\n"
        int calls = libvirt.readBacks.size()
        restart(vm.uuid, [root, data1, data2])
        // one call to the host for the start, naming the VM
        assert libvirt.readBacks.size() == calls + 1 && libvirt.readBacks[-1] == [vm.uuid]
        assert libvirt.starts[-1].addons["userDefinedXmlHookScript"] != null
        def d1 = AioCaseSupport.decision(adminSession(), data1)
        assert d1.effective == "io_uring" && d1.runningIo == "io_uring" && d1.appliedIo == "io_uring" && d1.disagreement == null
        assert d1.readBackAt ==~ /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/
        [root, data2].each {
            def d = AioCaseSupport.decision(adminSession(), it)
            assert d.effective == "threads" && d.runningIo == "threads" && d.disagreement == null
        }
        assert events.isEmpty()
        // a read-back decides nothing: a start of the same decisions keeps their date
        String decidedAt = d1.decidedAt
        restart(vm.uuid, [data1])
        assert AioCaseSupport.decision(adminSession(), data1).decidedAt == decidedAt
    }

    void testQemusFallbackIsADisagreement() {
        createWebhook {
            name = "aio-disagreements"
            url = "http://127.0.0.1:8989${WEBHOOK_PATH}"
            type = EventFacade.WEBHOOK_TYPE
            opaque = PATH
        }
        env.simulator(WEBHOOK_PATH) { HttpEntity<String> e ->
            hooked.add(JSONObjectUtil.toObject(e.body, CanonicalEvent.class))
            return [:]
        }
        LogLines log = new LogLines("org.zstack.aio.zstack.IoModeReadBack")
        try {
            libvirt.qemuSays[vm.uuid] = FALLBACK
            restart(vm.uuid, [root, data1, data2])
            def d1 = AioCaseSupport.decision(adminSession(), data1)
            // the live XML says io_uring, QEMU's log says what it runs
            assert d1.effective == "io_uring" && d1.appliedIo == "io_uring" && d1.runningIo == "threads"
            String sentence = d1.disagreement
            assert sentence.startsWith("volume ") && sentence.contains(data1) && sentence.contains("of VM ${vm.uuid}")
            assert sentence.contains("runs threads, not the io_uring its decision says: QEMU wrote \"")
            assert sentence.contains("Unable to use linux io_uring, falling back to thread pool")
            // the other disks run threads as decided: the fallback is io_uring's only
            assert AioCaseSupport.decision(adminSession(), data2).disagreement == null
            // the query API: by the disagreement, and what it returns
            def q = AioCaseSupport.sdk("QueryVolumeIoModeDecisionAction")
            q.conditions = ["disagreement not null", "vmInstanceUuid=${vm.uuid}".toString()]
            q.sessionId = adminSession()
            def found = q.call().value.inventories
            assert found*.volumeUuid == [data1]
            assert found[0].runningIo == "threads" && found[0].disagreement == sentence && found[0].readBackAt == d1.readBackAt
            q.conditions = ["runningIo=io_uring", "vmInstanceUuid=${vm.uuid}".toString()]
            assert q.call().value.inventories.isEmpty()
            // once in the log, the core's sentence
            retryInSecs(10) { assert log.lines.count { it.contains(sentence) } == 1: log.lines }
            // the canonical event, to a subscriber and to the admin's webhook
            retryInSecs(10) {
                assert events.size() == 1
                assert hooked.size() == 1
            }
            assert events[0] == [vm: vm.uuid, volume: data1, host: host, decided: "io_uring", running: "threads", sentence: sentence]
            assert hooked[0].path == PATH
            assert JSONObjectUtil.toObject(JSONObjectUtil.toJsonString(hooked[0].content), LinkedHashMap.class).sentence == sentence
        } finally {
            log.detach()
        }
    }

    void testADriverWithoutTheDecidedIoIsADisagreement() {
        events.clear()
        // something on the host (an admin's own hook, a hand-edited domain) drops the io attribute the decision set
        libvirt.afterStart[vm.uuid] = { String xml -> xml.replace("io=\"io_uring\"", "").replace("io='io_uring'", "") }
        restart(vm.uuid, [data1])
        def d1 = AioCaseSupport.decision(adminSession(), data1)
        assert d1.runningIo == "threads" && d1.appliedIo == null
        assert d1.disagreement.contains("runs threads, not the io_uring its decision says: its <driver> in the running domain has no io attribute")
        retryInSecs(10) { assert events.size() == 1 && events[0].running == "threads" && events[0].volume == data1 }
        // started again as decided: the disagreement goes
        restart(vm.uuid, [data1])
        d1 = AioCaseSupport.decision(adminSession(), data1)
        assert d1.runningIo == "io_uring" && d1.disagreement == null
    }

    void testAReconnectReadsBackEveryRunningVmInOneCall() {
        VmInstanceInventory vm2 = createVmInstance {
            name = "vm2"
            instanceOfferingUuid = (env.inventoryByName("instanceOffering") as InstanceOfferingInventory).uuid
            imageUuid = (env.inventoryByName("image") as ImageInventory).uuid
            l3NetworkUuids = [(env.inventoryByName("l3") as L3NetworkInventory).uuid]
            hostUuid = host
        } as VmInstanceInventory
        readBackOf([vm2.rootVolumeUuid], [:])
        Map<String, String> before = [root, data1, data2, vm2.rootVolumeUuid].collectEntries {
            [(it): AioCaseSupport.decision(adminSession(), it).readBackAt]
        }
        int calls = libvirt.readBacks.size()
        reconnectHost { uuid = host }
        readBackOf([root, data1, data2, vm2.rootVolumeUuid], before)
        // one call for the host, naming both running VMs
        assert libvirt.readBacks.size() == calls + 1
        assert libvirt.readBacks[-1].toSet() == [vm.uuid, vm2.uuid].toSet()

        // a stopped VM is not asked for
        stopVmInstance { uuid = vm2.uuid }
        before = [(root): AioCaseSupport.decision(adminSession(), root).readBackAt]
        calls = libvirt.readBacks.size()
        reconnectHost { uuid = host }
        readBackOf([root], before)
        assert libvirt.readBacks.size() == calls + 1 && libvirt.readBacks[-1] == [vm.uuid]
        destroyVmInstance { uuid = vm2.uuid }
    }

    void testAHotPlugWhoseRecordCannotBeStoredStillSucceeds() {
        VolumeInventory vol = createDataVolume {
            name = "hot-unstored"
            diskOfferingUuid = (env.inventoryByName("diskOffering") as DiskOfferingInventory).uuid
            primaryStorageUuid = env.inventoryByName("local").uuid
            systemTags = ["localStorage::hostUuid::${host}".toString()]
        } as VolumeInventory
        JdbcTemplate jdbc = new JdbcTemplate(bean(DatabaseFacade.class).dataSource)
        LogLines log = new LogLines("org.zstack.aio.zstack.IoModeDecisionStore")
        LogLines readBackLog = new LogLines("org.zstack.aio.zstack.IoModeReadBack")
        int calls = libvirt.readBacks.size()
        jdbc.execute("RENAME TABLE AioVolumeIoModeDecisionVO TO AioVolumeIoModeDecisionVO_aside")
        try {
            // the database refuses the record: the attach the host has done stands
            attachDataVolumeToVm { vmInstanceUuid = vm.uuid; volumeUuid = vol.uuid }
            assert dbFindByUuid(vol.uuid, VolumeVO.class).vmInstanceUuid == vm.uuid
            // said in one line; the hot-plug's own read-back cannot read the records either, and says so
            retryInSecs(30) {
                assert libvirt.readBacks.size() == calls + 1
                assert readBackLog.lines.any { it.contains("could not compare the read-back of host") }: readBackLog.lines
            }
            assert log.lines.count { it.contains("could not be stored") && it.contains(vol.uuid) } == 1: log.lines
            String said = log.lines.find { it.contains(vol.uuid) }
            assert said.contains("the io-mode records of the attach of vm[uuid:${vm.uuid}]")
            assert said.contains("the attach stands, and the next read-back of the VM stores them")
        } finally {
            jdbc.execute("RENAME TABLE AioVolumeIoModeDecisionVO_aside TO AioVolumeIoModeDecisionVO")
            log.detach()
            readBackLog.detach()
        }
        // not stored: the API has none
        assert stored(vol.uuid).error != null
        // the next read-back (here the host's reconnect) stores it, whole, with what the disk runs
        reconnectHost { uuid = host }
        retryInSecs(30) {
            def r = stored(vol.uuid)
            assert r.error == null
            assert r.value.inventory.operation == "attach" && r.value.inventory.vmInstanceUuid == vm.uuid
            assert r.value.inventory.runningIo == r.value.inventory.effective && r.value.inventory.readBackAt != null
        }
        detachDataVolumeFromVm { uuid = vol.uuid }
    }

    /**
     * A host that no longer takes its stored password (ZStack 5.2.0 keeps one for every host: KVMHostVO.password is NOT
     * NULL; an admin changed it on the host, or turned password logins off): ZStack's KvmRunShellMsg cannot log in
     * (KVMHost.runShell has the password only), so HostShell sends the same command over SSH with ZStack's own key. The
     * host is this machine, reached through a private sshd on 127.0.0.1 that takes only ZStack's public key for root
     * (loopback-sshd.sh: no password logins), and the simulator stops answering KvmRunShellMsg meanwhile, so ZStack's
     * own handler runs. The read-back really runs there: the system virsh answers that no such domain exists, which the
     * module logs as the VM not read back.
     */
    void testAHostThatNoLongerTakesItsPasswordIsReadWithZStacksKey() {
        File script = new File(getClass().getResource("/aio/loopback-sshd.sh").toURI())
        File dir = Files.createTempDirectory("aio-sshd").toFile()
        // ZStack's key pair: a node's start loads it from ansible/rsaKeys (AnsibleFacadeImpl.start), which a test's
        // node skips; the same fields are given a pair made here
        AnsibleFacade asf = bean(AnsibleFacade.class)
        assert asf.privateKey == null: "this test's node has an SSH key of its own"
        assert new ProcessBuilder("ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-m", "PEM", "-N", "", "-f",
                new File(dir, "id_rsa").path).start().waitFor() == 0
        asf.@privateKey = new File(dir, "id_rsa").text.trim()
        asf.@publicKey = new File(dir, "id_rsa.pub").text.trim()
        int port = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1")).withCloseable { it.localPort }
        Process start = new ProcessBuilder("sh", script.path, "start", dir.path, "${port}".toString(), asf.publicKey.trim())
                .redirectErrorStream(true).start()
        String started = start.inputStream.getText("UTF-8")
        int rc = start.waitFor()
        if (rc == 3 && System.getenv("CI") != "true") {
            println("[AioIoModeReadBackCase] SKIPPED the SSH-key read-back: ${started.trim()}")
            asf.@privateKey = null
            asf.@publicKey = null
            return
        }
        assert rc == 0: "loopback sshd: ${started}"
        JdbcTemplate jdbc = new JdbcTemplate(bean(DatabaseFacade.class).dataSource)
        Object sshPort = jdbc.queryForObject("SELECT port FROM KVMHostVO WHERE uuid = ?", Object.class, host)
        def handlers = env.@messageHandlers.remove(KvmRunShellMsg.class)
        LogLines log = new LogLines("org.zstack.aio.zstack.IoModeReadBack")
        try {
            jdbc.update("UPDATE KVMHostVO SET port = ? WHERE uuid = ?", port, host)
            stopVmInstance { uuid = vm.uuid }
            startVmInstance { uuid = vm.uuid }
            retryInSecs(30) {
                assert new File(dir, "sshd.log").text.contains("Accepted publickey for root from 127.0.0.1")
                // virsh's own words, from this machine's libvirt: the script ran on the host
                assert log.lines.any {
                    it.contains("VM ${vm.uuid} on host") && it.contains("was not read back: ") && it.contains("error: failed to get domain '${vm.uuid}'")
                }: log.lines
            }
        } finally {
            jdbc.update("UPDATE KVMHostVO SET port = ? WHERE uuid = ?", sshPort, host)
            if (handlers != null) env.@messageHandlers.put(KvmRunShellMsg.class, handlers)
            new ProcessBuilder("sh", script.path, "stop", dir.path).start().waitFor()
            asf.@privateKey = null
            asf.@publicKey = null
            log.detach()
            dir.deleteDir()
        }
    }

    private def stored(String volumeUuid) {
        def a = AioCaseSupport.sdk("GetVolumeIoModeDecisionAction")
        a.volumeUuid = volumeUuid
        a.sessionId = adminSession()
        return a.call()
    }
}
