package org.zstack.test.integration.aio

import org.springframework.http.HttpEntity
import org.zstack.kvm.KVMAgentCommands
import org.zstack.kvm.KVMConstant
import org.zstack.kvm.KvmRunShellMsg
import org.zstack.kvm.KvmRunShellReply
import org.zstack.testlib.EnvSpec
import org.zstack.utils.gson.JSONObjectUtil

import java.nio.file.Files
import java.util.concurrent.ConcurrentHashMap

/**
 * One simulated KVM host as plugin-aio's read-back sees it: the module's command, exactly as KvmRunShellMsg carries
 * it, run by sh on this machine with a stand-in virsh (list, domstate, dumpxml) and a QEMU log folder in place of the
 * host's. Each VM's live domain XML is what libvirt's dumpxml prints for what the simulator's agent was sent: the
 * StartVmCmd's domain (vm_plugin.py's disks) after the command's hook (ZStack's xmlhook.py under Python 3, as the
 * agent runs it before defineXML), a hot-plugged disk as vm_plugin.py attaches it (io='native' with the NativeAio
 * addon); libvirt adds the domain's id and each disk's alias. Each VM's QEMU log is libvirt's: a "starting up" line
 * per start, the QEMU command line, then what QEMU wrote ({@link #qemuSays}).
 */
class SimulatedLibvirt {
    final String hostUuid
    final File dir
    /** vm uuid -> its live domain XML (dumpxml) */
    final Map<String, String> domains = new ConcurrentHashMap<>()
    /** vm uuid -> its QEMU log, every run */
    final Map<String, String> logs = new ConcurrentHashMap<>()
    /** the VMs each read-back asked for, in order */
    final List<List<String>> readBacks = Collections.synchronizedList([])
    final List<KVMAgentCommands.StartVmCmd> starts = Collections.synchronizedList([])
    /** what QEMU writes in a VM's log after its next start (then forgotten) */
    final Map<String, String> qemuSays = new ConcurrentHashMap<>()
    /** changes a VM's live XML after its next start, as something on the host might (then forgotten) */
    final Map<String, Closure<String>> afterStart = new ConcurrentHashMap<>()
    private int runs

    SimulatedLibvirt(EnvSpec env, String hostUuid) {
        this.hostUuid = hostUuid
        dir = Files.createTempDirectory("aio-libvirt").toFile()
        new File(dir, "bin").mkdirs()
        File virsh = new File(dir, "bin/virsh")
        virsh.text = '''#!/bin/sh
# a stand-in for virsh on a host: what libvirt answers for the domains under $AIO_SIM_DOMAINS
while [ $# -gt 0 ]; do case "$1" in -q) shift ;; -c) shift 2 ;; *) break ;; esac; done
f="$AIO_SIM_DOMAINS/$2.xml"
case "$1" in
  list) for x in "$AIO_SIM_DOMAINS"/*.xml; do [ -f "$x" ] && basename "$x" .xml; done ;;
  domstate) [ -f "$f" ] || { echo "error: failed to get domain '$2'" >&2; exit 1; }; echo running ;;
  dumpxml) [ -f "$f" ] || { echo "error: failed to get domain '$2'" >&2; exit 1; }; cat "$f" ;;
  *) echo "error: unknown command: '$1'" >&2; exit 1 ;;
esac
'''
        virsh.setExecutable(true)
        env.afterSimulator(KVMConstant.KVM_START_VM_PATH) { rsp, HttpEntity<String> e ->
            started(JSONObjectUtil.toObject(e.body, KVMAgentCommands.StartVmCmd.class))
            return rsp
        }
        env.afterSimulator(KVMConstant.KVM_ATTACH_VOLUME) { rsp, HttpEntity<String> e ->
            attached(JSONObjectUtil.toObject(e.body, KVMAgentCommands.AttachDataVolumeCmd.class))
            return rsp
        }
        env.message(KvmRunShellMsg.class, { KvmRunShellMsg m -> m.hostUuid == hostUuid && AioCaseSupport.isReadBack(m.script) }) { KvmRunShellMsg msg, bus ->
            bus.reply(msg, run(msg.script))
        }
    }

    private void started(KVMAgentCommands.StartVmCmd cmd) {
        starts.add(cmd)
        String vm = cmd.vmInstanceUuid
        String xml = cmd.addons[AioHookRunner.ADDON] == null ? AioHookRunner.domainXml(cmd)
                : AioHookRunner.runXmlHook(AioHookRunner.interpreters()[0], cmd.addons[AioHookRunner.ADDON] as String, AioHookRunner.domainXml(cmd))
        Closure<String> edit = afterStart.remove(vm)
        domains[vm] = live(edit == null ? xml : edit(xml), ++runs)
        String said = qemuSays.remove(vm)
        logs[vm] = (logs[vm] ?: "") + startingUp(vm, runs) + (said == null ? "" : said + "\n")
    }

    private void attached(KVMAgentCommands.AttachDataVolumeCmd cmd) {
        String vm = cmd.vmInstanceUuid
        String xml = domains[vm]
        if (xml == null) return
        int index = (xml =~ /<disk /).size()
        String disk = AioHookRunner.diskXml(cmd.volume, index)
        if (cmd.addons?.get("NativeAio")) disk = disk.replaceFirst("<driver name='qemu' ", "<driver name='qemu' io='native' ")
        domains[vm] = xml.replace("</devices>", alias(disk, index) + "</devices>")
    }

    /** What libvirt adds to the XML it was given once the domain runs: its id, each disk's alias. */
    private static String live(String xml, int id) {
        String out = xml.replaceFirst(/<domain ([^>]*)>/, "<domain \$1 id='${id}'>")
        int[] n = [0]
        return out.replaceAll(/<\/disk>/) { "<alias name='virtio-disk${n[0]++}'/></disk>" }
    }

    private static String alias(String disk, int index) {
        return disk.replace("</disk>", "<alias name='virtio-disk${index}'/></disk>")
    }

    /** libvirt's lines at a domain's start (qemu_process.c: "starting up", then the command line). */
    static String startingUp(String vm, int run) {
        return "2026-11-27 10:0${run % 10}:00.000+0000: starting up libvirt version: 10.0.0, package: 1.el9, qemu version: " +
                "8.2.0qemu-kvm-8.2.0-13.el9, kernel: 6.8.0-45-generic, hostname: kvm1\n" +
                "LC_ALL=C \\\nPATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin \\\n/usr/libexec/qemu-kvm \\\n" +
                "-name guest=${vm},debug-threads=on \\\n-S \\\n-msg timestamp=on\n" +
                "char device redirected to /dev/pts/${run} (label charserial0)\n"
    }

    /** The read-back as the host runs it: the command through sh, virsh and the logs as above. */
    private synchronized KvmRunShellReply run(String command) {
        readBacks.add(AioCaseSupport.readBackVms(command))
        File domainsDir = new File(dir, "domains")
        File logDir = new File(dir, "qemu")
        [domainsDir, logDir].each { it.deleteDir(); it.mkdirs() }
        // virsh ends what it prints with a line break
        domains.each { vm, xml -> new File(domainsDir, vm + ".xml").text = xml.endsWith("\n") ? xml : xml + "\n" }
        logs.each { vm, log -> new File(logDir, vm + ".log").text = log }
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", command)
        pb.environment().put("PATH", new File(dir, "bin").path + ":" + System.getenv("PATH"))
        pb.environment().put("AIO_SIM_DOMAINS", domainsDir.path)
        pb.environment().put("AIO_QEMU_LOG_DIR", logDir.path)
        File err = new File(dir, "stderr")
        pb.redirectError(err)
        Process p = pb.start()
        String out = p.inputStream.getText("UTF-8")
        KvmRunShellReply reply = new KvmRunShellReply()
        reply.returnCode = p.waitFor()
        reply.stdout = out
        reply.stderr = err.text
        return reply
    }

    void delete() {
        dir.deleteDir()
    }
}
