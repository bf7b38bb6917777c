package org.zstack.test.integration.aio

import org.springframework.http.HttpEntity
import org.zstack.kvm.KVMConstant
import org.zstack.kvm.KvmRunShellMsg
import org.zstack.kvm.KvmRunShellReply
import org.zstack.testlib.EnvSpec
import org.zstack.utils.gson.JSONObjectUtil

/**
 * ZStack's real KVM agent (kvmagent 5.2.1 on this machine's libvirt and QEMU) behind ZStack's test framework, which has
 * no real-agent switch: the simulator paths of the VM operations the module touches answer with what the real agent
 * answers. Each command's JSON, as the management node sent it, is posted to realagent/launch_agent.py on 127.0.0.1 (the
 * agent's own VmPlugin handlers) and the agent's JSON answer is returned; the framework then posts it to the node's
 * callback, as the agent's http.py does. Every other agent path stays simulated. Three changes are made to a command
 * before it goes: a start carries no NICs (ZStack's simulated L2/L3 has no bridge on this machine) and gets
 * MemAccess "private" when the node sent none (below), and a grace stop goes as cold (the VMs have no guest OS to
 * answer ACPI; the agent would destroy the domain after 60 s anyway).
 *
 * The host probe (KvmRunShellMsg) runs for real here, on this machine, with AIO_KVMAGENT_DIR naming the agent in use.
 * Started by bin/lib/zstack-cases.sh (bin/lib/zstack-agent.sh), which passes -Daio.realagent.stock, .patched, .tools
 * and .qmplog.
 */
class RealKvmAgent {
    static final List<String> PATHS = [KVMConstant.KVM_START_VM_PATH, KVMConstant.KVM_STOP_VM_PATH,
            KVMConstant.KVM_REBOOT_VM_PATH, KVMConstant.KVM_DESTROY_VM_PATH, KVMConstant.KVM_ATTACH_VOLUME,
            KVMConstant.KVM_DETACH_VOLUME]

    final String stockUrl = System.getProperty("aio.realagent.stock")
    final String patchedUrl = System.getProperty("aio.realagent.patched")
    final String tools = System.getProperty("aio.realagent.tools")
    final String qmpLog = System.getProperty("aio.realagent.qmplog")
    /** every command forwarded, with the agent's answer: [path, command JSON, answer JSON] */
    final List<List<String>> exchanges = Collections.synchronizedList([])
    String current
    /** called with each volume (VolumeTO as a map) a start or an attach is about to hand the agent */
    Closure prepare = { Map volume -> }
    /** every host script run: [script, stdout, stderr, exit code] */
    final List<List<String>> hostScripts = Collections.synchronizedList([])

    static boolean configured() {
        return System.getProperty("aio.realagent.stock") != null
    }

    /** Answers the chosen paths with the agent at {@code url} from now on. */
    void use(EnvSpec env, String url) {
        current = url
        PATHS.each { String path ->
            env.simulator(path) { HttpEntity<String> e, EnvSpec spec ->
                return forward(path, e.body)
            }
        }
    }

    private String forward(String path, String body) {
        Map cmd = JSONObjectUtil.toObject(body, LinkedHashMap.class)
        if (path == KVMConstant.KVM_START_VM_PATH) {
            cmd.nics = []
            // open-source ZStack 5.2.0 sets MemAccess only for vhost-user VMs; agent 5.2.1 tests `MemAccess in "shared"`
            // for every start, a TypeError on null. "private" is what the agent's own tests send (vm_utils.py).
            if (cmd.MemAccess == null) cmd.MemAccess = "private"
            ([cmd.rootVolume] + (cmd.dataVolumes ?: [])).findAll { it != null }.each { prepare(it as Map) }
        } else if (path == KVMConstant.KVM_ATTACH_VOLUME) {
            prepare(cmd.volume as Map)
        } else if (path == KVMConstant.KVM_STOP_VM_PATH && cmd.type == "grace") {
            cmd.type = "cold"
        }
        String json = JSONObjectUtil.toJsonString(cmd)
        String answer = post(current + path, json)
        exchanges.add([path, json, answer])
        return answer
    }

    private static String post(String url, String json) {
        HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection()
        c.requestMethod = "POST"
        c.doOutput = true
        c.readTimeout = 180000
        c.setRequestProperty("Content-Type", "application/json")
        c.outputStream.withWriter("UTF-8") { it << json }
        String answer = (c.responseCode < 400 ? c.inputStream : c.errorStream).getText("UTF-8")
        assert c.responseCode == 200: "the real agent's launcher answered ${url} with ${c.responseCode}: ${answer}"
        return answer
    }

    /** The folder ZStack would install the agent in, for the probe's AIO_KVMAGENT_DIR (…/lib/python2.7/site-packages/…). */
    String agentDir(String url) {
        String vmPlugin = new URL(url + "/health").getText("UTF-8").trim().replaceFirst("^ok ", "")
        return vmPlugin.replaceFirst("/lib/python[^/]*/site-packages/kvmagent/plugins/vm_plugin.py\$", "")
    }

    /**
     * The module's host scripts (probe, read-back) run on this machine as ZStack's KVMHost.runShell runs them on a host
     * over SSH: Ssh.shell's own template (the script written to /tmp through an unquoted here-document, run by
     * /bin/bash under timeout), given to bash here instead of an SSH session. AIO_KVMAGENT_DIR names the agent in use.
     */
    void runHostScripts(EnvSpec env) {
        env.message(KvmRunShellMsg.class) { KvmRunShellMsg msg, bus ->
            String f = "/tmp/" + UUID.randomUUID(), o = "/tmp/" + UUID.randomUUID(), e = "/tmp/" + UUID.randomUUID()
            String text = ["cat << EOF1 > ${f}", "PATH=/usr/local/bin:/bin:/usr/bin:/usr/local/sbin:/usr/sbin:/sbin",
                           msg.script, "EOF1", "timeout 60 /bin/bash ${f} 1>${o} 2>${e}", "ret=\$?",
                           "test -f ${o} && cat ${o}", "test -f ${e} && cat ${e} 1>&2", "rm -f ${f}", "rm -f ${o}",
                           "rm -f ${e}", "exit \$ret"].join("\n")
            ProcessBuilder pb = new ProcessBuilder("bash", "-c", text)
            pb.environment().put("AIO_KVMAGENT_DIR", agentDir(current))
            Process p = pb.start()
            String out = p.inputStream.getText("UTF-8")
            String err = p.errorStream.getText("UTF-8")
            KvmRunShellReply reply = new KvmRunShellReply()
            reply.returnCode = p.waitFor()
            reply.stdout = out
            reply.stderr = err
            hostScripts.add([msg.script, out, err, String.valueOf(reply.returnCode)])
            bus.reply(msg, reply)
        }
    }

    /** Each disk of the VM's running QEMU by image path: aio, direct (O_DIRECT), from (cmdline|blockdev-add). */
    Map<String, Map> qemuDisks(String vmUuid) {
        Map r = JSONObjectUtil.toObject(run("python3", tools + "/qemu_disk_aio.py", vmUuid, qmpLog), LinkedHashMap.class)
        assert r.pid != null: "no QEMU runs for VM ${vmUuid}"
        return r.disks as Map<String, Map>
    }

    /** True when a QEMU process of the VM runs. */
    boolean qemuRuns(String vmUuid) {
        return JSONObjectUtil.toObject(run("python3", tools + "/qemu_disk_aio.py", vmUuid), LinkedHashMap.class).pid != null
    }

    /** Waits until the VM's QEMU has run {@code seconds} (ps etimes). */
    void waitQemuUptime(String vmUuid, int seconds) {
        Object pid = JSONObjectUtil.toObject(run("python3", tools + "/qemu_disk_aio.py", vmUuid), LinkedHashMap.class).pid
        assert pid != null: "no QEMU runs for VM ${vmUuid}"
        while ((run("ps", "-o", "etimes=", "-p", String.valueOf(((Number) pid).longValue())).trim() as int) < seconds) {
            sleep(500)
        }
    }

    static String run(String... args) {
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start()
        String out = p.inputStream.getText("UTF-8")
        assert p.waitFor() == 0: "${args.join(' ')}: ${out}"
        return out
    }
}
