package org.zstack.test.integration.aio

import org.springframework.http.HttpEntity
import org.zstack.kvm.KVMAgentCommands
import org.zstack.core.Platform
import org.zstack.core.db.Q
import org.zstack.core.db.SQL
import org.zstack.header.volume.VolumeVO
import org.zstack.header.volume.VolumeVO_
import org.zstack.kvm.KVMConstant
import org.zstack.kvm.KvmRunShellMsg
import org.zstack.kvm.KvmRunShellReply
import org.zstack.kvm.hypervisor.datatype.HypervisorVersionState
import org.zstack.kvm.hypervisor.datatype.KvmHypervisorInfoVO
import org.zstack.kvm.hypervisor.datatype.KvmHypervisorInfoVO_
import org.zstack.sdk.UpdateGlobalConfigAction
import org.zstack.sdk.UpdateResourceConfigAction
import org.zstack.testlib.EnvSpec
import org.zstack.testlib.SpringSpec
import org.zstack.testlib.Test
import org.zstack.utils.gson.JSONObjectUtil

/** What the plugin-aio cases share: the Spring set (ZStack's KVM set plus the module) and REST helpers. */
class AioCaseSupport {
    /** ZStack's KVM set of components (as its KvmTest uses) plus the module, plus any test-only Spring files. */
    static SpringSpec spring(String... extraXml) {
        return Test.makeSpring {
            sftpBackupStorage()
            localStorage()
            nfsPrimaryStorage()
            smp()
            virtualRouter()
            flatNetwork()
            securityGroup()
            kvm()
            ceph()
            vyos()
            eip()
            lb()
            portForwarding()
            include("LongJobManager.xml")
            include("HostAllocateExtension.xml")
            // ZStack's webhooks: how an admin receives the module's canonical events (/aio/ioMode/...)
            include("webhook.xml")
            include("AioIoMode.xml")
            extraXml.each { include(it) }
        }
    }

    /**
     * What conf/aio/host-probe.sh prints on a host where QEMU opens images with io_uring: since 46a3441 the probe also
     * prints every host fact the known-bad rules test (qemu_native, kernel.release, qemu.linux-aio, qemu.liburing,
     * aio.free, io_uring.setup, process.seccomp), and the core names each one missing as unknown; here all of them, as
     * a healthy host prints them (no rule fires on them: AioIoModeKnownBadRulesCase). The storages' lines depend on the
     * case's storage (AioIoModeKnownBadRulesCase adds them).
     */
    static final String CAPABLE_HOST = "kernel=6.8.0-45-generic\nio_uring_disabled=0\nqemu=8.2.2\nqemu_io_uring=yes\nlibvirt=10.0.0\n" +
            "kvmagent_patch=no\nkvmagent_patch_reason=/var/lib/zstack/virtualenv/kvm/lib/python2.7/site-packages/kvmagent/plugins/vm_plugin.py" +
            " does not read the aioIoMode addon\n" +
            "qemu_native=yes\nkernel.release=6.8.0-45-generic\nqemu.linux-aio=true\nqemu.liburing=liburing.so.2\n" +
            "aio.free=1048000\nio_uring.setup=ok\nprocess.seccomp=disabled\n"

    /**
     * The simulated host's answer to plugin-aio's probe (ZStack's KvmRunShellMsg, SSH on a real host): what
     * {@code lines} (given the host's uuid) returns at each connect, or, when it returns null, the SSH failure ZStack
     * reports. The scripts received are collected in the returned list.
     */
    static List<String> answerProbe(EnvSpec env, Closure<String> lines) {
        List<String> scripts = Collections.synchronizedList([])
        // the read-back is answered apart (SimulatedLibvirt); a case without one has it refused by the test's bus
        env.message(KvmRunShellMsg.class, { KvmRunShellMsg m -> !isReadBack(m.script) }) { KvmRunShellMsg msg, bus ->
            KvmRunShellReply reply = new KvmRunShellReply()
            if (isSample(msg.script)) {
                // the module's periodic workload sample (AioWorkloadSampler): a host running nothing, not a probe
                reply.stdout = "sample at=${System.currentTimeMillis().intdiv(1000)}\n--- virsh list\n--- virsh domstats --block\n"
                reply.stderr = ""
                reply.returnCode = 0
                bus.reply(msg, reply)
                return
            }
            scripts.add(hostRuns(msg.script))
            String out = lines(msg.hostUuid)
            if (out == null) {
                reply.setError(Platform.operr("unable to connect to KVM[ip:localhost, username:root, sshPort:22 ]; connection refused"))
            } else {
                reply.stdout = out
                reply.stderr = ""
                reply.returnCode = 0
            }
            bus.reply(msg, reply)
        }
        return scripts
    }

    /**
     * The script a KvmRunShellMsg carries as the host's shell runs it: plugin-core's HostScript sends
     * {@code echo <base64> | base64 -d | sh} (the script and its {@code set --} arguments inside), anything else as is.
     */
    static String hostRuns(String sent) {
        def m = sent.trim() =~ /^echo ([A-Za-z0-9+\/=]+) \| base64 -d \| sh$/
        return m.matches() ? new String(Base64.decoder.decode(m.group(1)), "UTF-8") : sent
    }

    /** Whether the script sent is plugin-aio's read-back (conf/aio/read-back.sh). */
    static boolean isReadBack(String sent) {
        return hostRuns(sent).contains("# plugin-aio read-back")
    }

    /** The VMs a read-back was sent for: its {@code set --} arguments. */
    static List<String> readBackVms(String sent) {
        String first = hostRuns(sent).readLines().find { it.startsWith("set --") }
        return first == null ? [] : (first =~ /'([^']*)'/).collect { it[1] as String }
    }

    /** What `echo <base64> | base64 -d | sh` runs (the core's HostScript.command); the text itself for a plain script. */
    static String decoded(String script) {
        def m = script =~ /echo ([A-Za-z0-9+\/=]+) \| base64 -d/
        return m.find() ? new String(Base64.decoder.decode(m.group(1)), "UTF-8") : script
    }

    /** Whether a script sent to a host is conf/aio/host-sample.sh, the workload sample. */
    static boolean isSample(String script) {
        return decoded(script).contains("virsh -r domstats --block")
    }

    /** The host's io facts through the module's API and SDK action (GetHostIoFactsAction). */
    static def hostFacts(String session, String hostUuid) {
        return inventory(session, "GetHostIoFacts", [hostUuid: hostUuid])
    }

    /**
     * Records the QEMU version ZStack keeps for the host (KvmHypervisorInfoVO, qemu-kvm), as its agent reports it. ZStack
     * writes it only while a host connects, after which the module publishes the host's facts as changed
     * (AioHostIoFactsFlow.afterHostConnected); written here directly, the same change is published here.
     */
    static void qemuKvm(String hostUuid, String version) {
        SQL.New(KvmHypervisorInfoVO.class).eq(KvmHypervisorInfoVO_.uuid, hostUuid).delete()
        KvmHypervisorInfoVO vo = new KvmHypervisorInfoVO()
        vo.uuid = hostUuid
        vo.hypervisor = KVMConstant.VIRTUALIZER_QEMU_KVM
        vo.version = version
        vo.matchState = HypervisorVersionState.Matched
        Platform.getComponentLoader().getComponent(org.zstack.core.db.DatabaseFacade.class).persist(vo)
        hostFactsChanged(hostUuid)
    }

    /** What the module does after a host's facts were written (its probe, ZStack's connect): every node reads them again. */
    static void hostFactsChanged(String hostUuid) {
        def changes = Platform.getComponentLoader().getComponent(Class.forName("org.zstack.aio.zstack.AioIoFactsChanges"))
        changes.publish(Class.forName("org.zstack.aio.plugin.cache.IoFactsChange").hostFacts(hostUuid))
    }

    /**
     * The storage benchmark's table as docs' agreed schema holds it (V5.2.1.112, the benchmark's own upgrade script):
     * created here only when the module under test does not ship that script yet.
     */
    static void benchmarkTable(org.springframework.jdbc.core.JdbcTemplate jdbc) {
        jdbc.execute("CREATE TABLE IF NOT EXISTS AioStorageBenchmarkVO (hostUuid varchar(32) NOT NULL, primaryStorageUuid varchar(32)"
                + " NOT NULL, imageKind varchar(32) NOT NULL, outcome varchar(32) NOT NULL, note text, benchLines mediumtext,"
                + " takenAt varchar(64), createDate timestamp NOT NULL DEFAULT '0000-00-00 00:00:00', lastOpDate timestamp NOT NULL"
                + " DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, PRIMARY KEY (hostUuid, primaryStorageUuid, imageKind))"
                + " ENGINE=InnoDB DEFAULT CHARSET=utf8")
    }

    /** A volume's allocation as ZStack's agent reported it (VolumeVO.actualSize). */
    static void actualSize(String volumeUuid, Long bytes) {
        SQL.New(VolumeVO.class).eq(VolumeVO_.uuid, volumeUuid).set(VolumeVO_.actualSize, bytes).update()
    }

    /** UpdateResourceConfig through ZStack's REST API; the error (null on success). */
    /**
     * Every node forgets what the module keeps in memory (host facts, figures, config rows, storage types), as a node
     * that has just started: for what a case changes behind ZStack's API (SQL), which a running node never hears.
     */
    static void forgetKeptFacts() {
        def changes = Platform.getComponentLoader().getComponent(Class.forName("org.zstack.aio.zstack.AioIoFactsChanges"))
        changes.publish(Class.forName("org.zstack.aio.plugin.cache.IoFactsChange").all())
    }

    static org.zstack.sdk.ErrorCode setResourceConfig(String session, String category, String name, String resourceUuid, String value) {
        UpdateResourceConfigAction a = new UpdateResourceConfigAction()
        a.category = category
        a.name = name
        a.resourceUuid = resourceUuid
        a.value = value
        a.sessionId = session
        return a.call().error
    }

    /**
     * A PUT through ZStack's REST API as a script would send it, without the Java SDK (which trims string values
     * before sending): the API job is polled until it ends. The error's details, or null on success.
     */
    static String rawPut(String session, String path, String body) {
        def put = (HttpURLConnection) new URL("http://127.0.0.1:8989/v1/" + path).openConnection()
        put.requestMethod = "PUT"
        put.doOutput = true
        put.setRequestProperty("Content-Type", "application/json")
        put.setRequestProperty("Authorization", "OAuth " + session)
        put.outputStream.withWriter("UTF-8") { it << body }
        assert put.responseCode == 202: "PUT ${path}: ${put.responseCode}"
        String location = JSONObjectUtil.toObject(put.inputStream.getText("UTF-8"), LinkedHashMap.class).location
        for (int i = 0; i < 300; i++) {
            def get = (HttpURLConnection) new URL(location).openConnection()
            get.setRequestProperty("Authorization", "OAuth " + session)
            if (get.responseCode != 202) {
                def stream = get.responseCode < 400 ? get.inputStream : get.errorStream
                Map answer = JSONObjectUtil.toObject(stream.getText("UTF-8"), LinkedHashMap.class)
                return answer.error == null ? null : ((Map) answer.error).details
            }
            sleep(100)
        }
        throw new AssertionError("PUT ${path}: the API job did not end in 30 s")
    }

    /** UpdateGlobalConfig through ZStack's REST API; the error (null on success). */
    static org.zstack.sdk.ErrorCode setGlobalConfig(String session, String category, String name, String value) {
        UpdateGlobalConfigAction a = new UpdateGlobalConfigAction()
        a.category = category
        a.name = name
        a.value = value
        a.sessionId = session
        return a.call().error
    }

    /**
     * The stored decision, read through the module's API with the module's Java SDK action
     * (org.zstack.sdk.GetVolumeIoModeDecisionAction). The module's jars join the test classpath only at run time
     * (-Dmaven.test.additionalClasspath), after ZStack's test sources are compiled, so its classes are used by name.
     */
    static def decision(String session, String volumeUuid) {
        return inventory(session, "GetVolumeIoModeDecision", [volumeUuid: volumeUuid])
    }

    /** A stored decision's checks as comparable values (the SDK's check inventory has no equals). */
    static List<List> checks(def decision) {
        return decision.checks.collect { [it.mode, it.check, it.passed, it.message] }
    }

    /** The inventory answered by the module's SDK action {@code <name>Action} called with {@code params}. */
    private static def inventory(String session, String name, Map<String, String> params) {
        def a = sdk(name + "Action")
        params.each { k, v -> a[k] = v }
        a.sessionId = session
        def r = a.call()
        assert r.error == null: "${name}(${params}) failed: ${r.error}"
        return r.value.inventory
    }

    static def sdk(String simpleName) {
        return Class.forName("org.zstack.sdk." + simpleName).newInstance()
    }

    /** Records every command of {@code type} the KVM simulator receives on {@code path} from now on. */
    static <T> List<T> record(EnvSpec env, String path, Class<T> type) {
        List<T> cmds = Collections.synchronizedList([])
        env.afterSimulator(path) { rsp, HttpEntity<String> e ->
            cmds.add(JSONObjectUtil.toObject(e.body, type))
            return rsp
        }
        return cmds
    }

    static List<KVMAgentCommands.StartVmCmd> recordStarts(EnvSpec env) {
        return record(env, KVMConstant.KVM_START_VM_PATH, KVMAgentCommands.StartVmCmd.class)
    }

    static List<KVMAgentCommands.MigrateVmCmd> recordMigrations(EnvSpec env) {
        return record(env, KVMConstant.KVM_MIGRATE_VM_PATH, KVMAgentCommands.MigrateVmCmd.class)
    }

    static List<KVMAgentCommands.AttachDataVolumeCmd> recordAttaches(EnvSpec env) {
        return record(env, KVMConstant.KVM_ATTACH_VOLUME, KVMAgentCommands.AttachDataVolumeCmd.class)
    }
}
