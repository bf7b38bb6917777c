package org.zstack.test.integration.aio

import org.zstack.core.db.Q
import org.zstack.core.db.SQL
import org.zstack.header.storage.primary.PrimaryStorageVO
import org.zstack.header.storage.primary.PrimaryStorageVO_
import org.zstack.kvm.KVMAgentCommands
import org.zstack.sdk.VmInstanceInventory
import org.zstack.sdk.VolumeInventory
import org.zstack.storage.primary.smp.SMPConstants

/**
 * Every known-bad rule of conf/aio/io-mode-rules.yaml fires inside ZStack, fed through the host probe's output as a
 * host prints it (issue 34): the simulator answers the probe's KvmRunShellMsg with the lines of a host that has the
 * rule's fact (and its agent reports the same QEMU at connect, as a real host's does), the host is reconnected, the
 * VM restarted, and the data volume's stored decision names the rule as a failed check of the rule's mode. A probe
 * of a host without any such fact first: no known-bad check fails, and io_uring is chosen. The per-path facts
 * (filesystem, loop backing) reach the storage because the module hands the probe each file primary storage's path
 * ({@code <psUuid>=<path>}), which the case reads in the script the host received. The table covers every rule of the
 * shipped file: a rule added there without a row here fails the case.
 */
class AioIoModeKnownBadRulesCase extends AioCaseBase {
    String probe
    String qemu = "8.2.2"
    List<String> scripts
    String host, ps, data, path
    VmInstanceInventory vm

    /** A host on which no rule fires: every fact a rule tests printed, ext4 under the storage. */
    static String healthy(String ps, String path) {
        // the host's rule facts are CAPABLE_HOST's own; the storage's are this case's
        return AioCaseSupport.CAPABLE_HOST + "storage.${ps}.path=${path}\n" +
                "storage.${ps}.filesystem=ext4\nstorage.${ps}.loopBacked=no\nstorage.${ps}.directIo=yes\n"
    }

    /**
     * rule id -> [the mode it refuses, what the host prints instead of the healthy lines (key -> value; null: the line
     * is absent), the QEMU its agent reports]. lvm-io_uring (block storage) is the last row: its storage is retyped.
     */
    static final Map<String, List> RULES = [
            "qemu-7.1-io_uring-hang"        : ["io_uring", [qemu: "7.1.0"], "7.1.0"],
            "cifs-io_uring-kernel-5.15"     : ["io_uring", ["storage.PS.filesystem": "cifs"], null],
            "btrfs-native-odirect"          : ["native", ["storage.PS.filesystem": "btrfs"], null],
            "btrfs-io_uring-odirect"        : ["io_uring", ["storage.PS.filesystem": "btrfs"], null],
            "qemu-5.0-7.0-io_uring-btrfs"   : ["io_uring", ["storage.PS.filesystem": "btrfs", qemu: "6.2.0"], "6.2.0"],
            "qemu-before-6.1-io_uring"      : ["io_uring", [qemu: "6.0.0"], "6.0.0"],
            "liburing.so.1-io_uring"        : ["io_uring", ["qemu.liburing": "liburing.so.1"], null],
            "aio-max-nr-exhausted"          : ["native", ["aio.free": "512"], null],
            "qemu-without-linux-aio"        : ["native", ["qemu.linux-aio": "false"], null],
            "el9-io_uring-off-by-default"   : ["io_uring", [kernel: "5.14.0-427.el9_4.x86_64", "kernel.release": "5.14.0-427.el9_4.x86_64",
                                                            io_uring_disabled: null], null],
            "zfs-io_uring"                  : ["io_uring", ["storage.PS.filesystem": "zfs"], null],
            "loop-io_uring"                 : ["io_uring", ["storage.PS.loopBacked": "yes"], null],
            "kernel-before-5.13-io_uring"   : ["io_uring", [kernel: "5.10.0-28-amd64", "kernel.release": "5.10.0-28-amd64",
                                                            io_uring_disabled: null], null],
            "qemu-10.2-io_uring-unavailable": ["io_uring", [qemu: "10.2.0", "io_uring.setup": "EPERM"], "10.2.0"],
            "seccomp-io_uring"              : ["io_uring", ["io_uring.setup": "EPERM", "process.seccomp": "filter"], null],
            "lvm-io_uring"                  : ["io_uring", [:], null],
    ]

    /** The healthy lines with {@code changes}: a key's line replaced, removed (null) or added. */
    static String lines(String healthy, String ps, Map<String, String> changes) {
        Map<String, String> kv = new LinkedHashMap<>()
        healthy.split("\n").each { String l -> int eq = l.indexOf("="); if (eq > 0) kv[l.substring(0, eq)] = l.substring(eq + 1) }
        changes.each { String k, String v ->
            String key = k.replace("storage.PS.", "storage.${ps}.")
            if (v == null) kv.remove(key) else kv[key] = v
        }
        return kv.collect { k, v -> "${k}=${v}" }.join("\n") + "\n"
    }

    @Override
    protected List<String> extraSpringXml() {
        return ["AioSharedBlockStandIn.xml"]
    }

    /** ZStack deletes a primary storage through its type's factory: give the storage its real type back first. */
    @Override
    void clean() {
        if (ps != null) {
            SQL.New(PrimaryStorageVO.class).eq(PrimaryStorageVO_.uuid, ps).set(PrimaryStorageVO_.type, SMPConstants.SMP_TYPE).update()
        }
        super.clean()
    }

    @Override
    void environment() {
        env = AioEnvs.sharedMountPoint()
        scripts = AioCaseSupport.answerProbe(env) { String hostUuid -> probe }
        SimulatedHostQemu.reports(env) { qemu }
    }

    @Override
    void test() {
        env.create {
            vm = env.inventoryByName("vm") as VmInstanceInventory
            host = env.inventoryByName("kvm").uuid
            ps = env.inventoryByName("sblk").uuid
            data = (queryVolume { conditions = ["vmInstanceUuid=${vm.uuid}".toString(), "type=Data"] } as List<VolumeInventory>)[0].uuid
            PrimaryStorageVO vo = Q.New(PrimaryStorageVO.class).eq(PrimaryStorageVO_.uuid, ps).find()
            path = vo.mountPath ?: vo.url

            testTheProbeGetsTheStoragePath()
            testAHealthyHostFiresNoRule()
            testEveryShippedRuleHasARow()
            RULES.each { String id, List row -> testRuleFires(id, row[0] as String, row[1] as Map, row[2] as String) }
        }
    }

    /** Reconnects the host with {@code lines} as its probe's output and its agent reporting QEMU {@code version}. */
    private void reconnect(String lines, String version) {
        probe = lines
        qemu = version
        int before = scripts.size()
        reconnectHost { uuid = host }
        assert scripts.size() == before + 1
    }

    /** The data volume's decision after a restart with kvm/vm.ioMode = {@code mode} on its primary storage. */
    private def decide(String mode) {
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", ps, mode) == null
        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        stopVmInstance { uuid = vm.uuid }
        startVmInstance { uuid = vm.uuid }
        assert starts.size() == 1
        return AioCaseSupport.decision(adminSession(), data)
    }

    void testTheProbeGetsTheStoragePath() {
        reconnect(healthy(ps, path), "8.2.2")
        // the probe the host ran was given the shared mount point's path under the storage's uuid
        assert scripts[-1].startsWith("{\nset -- '${ps}=${path}'\n")
        assert scripts[-1].contains("qemu-img bench -f raw -t writeback -i io_uring")
        def s = AioCaseSupport.hostFacts(adminSession(), host).storages.find { it.primaryStorageUuid == ps }
        assert s.path == path && s.filesystem == "ext4" && s.loopBacked == false && s.directIo == true
    }

    void testAHealthyHostFiresNoRule() {
        def f = AioCaseSupport.hostFacts(adminSession(), host)
        assert f.unknown.isEmpty(): f.unknown
        assert f.qemu == "8.2.2" && f.kernel == "6.8.0"
        for (String mode : ["io_uring", "native"]) {
            def d = decide(mode)
            assert d.checks.findAll { it.check.startsWith("known-bad:") && !it.passed }.isEmpty(): AioCaseSupport.checks(d)
        }
        assert decide("io_uring").effective == "io_uring"
    }

    void testEveryShippedRuleHasARow() {
        def rules = Class.forName("org.zstack.aio.decision.rules.IoModeRulesLoader").fromClasspath()
        List<String> shipped = rules.knownBad()*.id()
        assert shipped.size() == 16
        assert shipped as Set == RULES.keySet()
    }

    void testRuleFires(String id, String mode, Map<String, String> changes, String version) {
        if (id == "lvm-io_uring") {
            // block storage: no path for the probe; the stand-in makes the volumes block devices, as SharedBlock does
            SQL.New(PrimaryStorageVO.class).eq(PrimaryStorageVO_.uuid, ps).set(PrimaryStorageVO_.type, SharedBlockDeviceStandIn.TYPE).update()
        }
        String printed = lines(healthy(ps, path), ps, changes)
        reconnect(printed, version ?: "8.2.2")
        def f = AioCaseSupport.hostFacts(adminSession(), host)
        assert f.probeOutput == printed
        if (version != null) assert f.qemu == version
        changes.findAll { it.key.startsWith("storage.PS.") }.each { k, v ->
            def s = f.storages.find { it.primaryStorageUuid == ps }
            String field = k.substring("storage.PS.".length())
            assert (s[field] instanceof Boolean ? (s[field] ? "yes" : "no") : s[field]) == v: "${id}: ${field} of ${s}"
        }
        def d = decide(mode)
        def fired = d.checks.find { it.check == "known-bad:${id}".toString() }
        assert fired != null: "${id} did not fire: ${AioCaseSupport.checks(d)}"
        assert fired.mode == mode && !fired.passed
        assert d.effective != mode: "${id}: ${AioCaseSupport.checks(d)}"
        if (id == "lvm-io_uring") {
            // the probe is not handed a block storage: it has no path to test
            assert !scripts[-1].contains("'${ps}=")
        }
    }
}
