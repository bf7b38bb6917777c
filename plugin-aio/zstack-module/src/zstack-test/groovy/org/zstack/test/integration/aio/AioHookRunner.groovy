package org.zstack.test.integration.aio

import org.w3c.dom.Element
import org.zstack.kvm.KVMAgentCommands
import org.zstack.kvm.VolumeTO

import javax.xml.parsers.DocumentBuilderFactory
import java.nio.file.Files
import java.nio.file.Path

/**
 * Runs a StartVmCmd's userDefinedXmlHookScript the way ZStack's agent does: vm_plugin.py builds the domain XML (each
 * disk's <driver> and <serial> as it writes them for file, ceph and block volumes), base64-decodes the addon and hands
 * both to zstacklib's xmlhook.get_modified_xml_from_hook. The real xmlhook.py (../shared/clients/zstack/kvmagent)
 * runs under Python 3 and Python 2; both must give every disk the same <driver>.
 */
class AioHookRunner {
    static final String ADDON = "userDefinedXmlHookScript"

    /** disk serial -> [io: ..., cache: ...] as each disk's first <driver> has them after the hook */
    static Map<String, Map<String, String>> run(KVMAgentCommands.StartVmCmd cmd) {
        Map<String, Map<String, Map<String, String>>> outputs = [:]
        hookedXml(cmd).each { String python, String xml -> outputs[python] = drivers(xml) }
        // Python 2 writes attributes sorted, Python 3 in document order: compare what the XML says, not its text
        assert new HashSet(outputs.values()).size() == 1: "Python 2 and 3 gave different disks: ${outputs}"
        return outputs.values().first()
    }

    /** interpreter -> the domain XML after the command's hook, as xmlhook.py returns it */
    static Map<String, String> hookedXml(KVMAgentCommands.StartVmCmd cmd) {
        String hook = cmd.addons[ADDON] as String
        assert hook != null: "the start command carries no ${ADDON}"
        String domain = domainXml(cmd)
        Map<String, String> out = [:]
        for (String python : interpreters()) {
            out[python] = runXmlHook(python, hook, domain)
        }
        return out
    }

    static List<String> interpreters() {
        List<String> out = []
        for (String p : ["aio.python3", "aio.python2"]) {
            String v = System.getProperty(p)
            assert v != null && new File(v).canExecute(): "-D${p} must name a Python interpreter (bin/lib/zstack-cases.sh sets it)"
            out.add(v)
        }
        return out
    }

    static String runXmlHook(String python, String hookBase64, String domainXml) {
        String kvmagent = System.getProperty("aio.kvmagent.dir")
        assert kvmagent != null && new File(kvmagent, "xmlhook.py").isFile(): "-Daio.kvmagent.dir must hold ZStack's xmlhook.py"
        Path dir = Files.createTempDirectory("aio-hook")
        File hookFile = dir.resolve("hook.b64").toFile()
        File domainFile = dir.resolve("domain.xml").toFile()
        hookFile.text = hookBase64
        domainFile.text = domainXml
        // exactly the agent's path: base64.b64decode(cmd.addons["userDefinedXmlHookScript"]) -> xmlhook
        String code = "import base64, sys, xmlhook; " +
                "sys.stdout.write(xmlhook.get_modified_xml_from_hook(base64.b64decode(open(sys.argv[1]).read()), open(sys.argv[2]).read()))"
        ProcessBuilder pb = new ProcessBuilder(python, "-c", code, hookFile.path, domainFile.path)
        pb.environment().put("PYTHONPATH", kvmagent)
        pb.redirectErrorStream(true)
        Process p = pb.start()
        String out = p.inputStream.text
        int rc = p.waitFor()
        dir.toFile().deleteDir()
        assert rc == 0: "${python} xmlhook failed (${rc}): ${out}"
        return out
    }

    /** The <devices> part of the domain XML as vm_plugin.py builds it at VM start. */
    static String domainXml(KVMAgentCommands.StartVmCmd cmd) {
        List<VolumeTO> vols = [cmd.rootVolume] + cmd.dataVolumes
        StringBuilder sb = new StringBuilder("<domain type='kvm'><name>${cmd.vmInstanceUuid}</name><devices>")
        vols.eachWithIndex { VolumeTO v, int i -> sb.append(diskXml(v, i)) }
        sb.append("<interface type='bridge'><driver name='vhost'/></interface></devices></domain>")
        return sb.toString()
    }

    static String diskXml(VolumeTO v, int index) {
        String dev = "vd" + ("abcdefghijklmnopqrstuvwxyz"[index])
        String serial = "<serial>${v.volumeUuid}</serial>"
        switch (v.deviceType) {
            case VolumeTO.FILE:   // vm_plugin.py filebased_volume
                return "<disk type='file' device='disk' snapshot='external'><driver name='qemu' type='${v.format ?: 'qcow2'}'" +
                        " cache='${v.cacheMode}' discard='unmap'/><source file='${v.installPath}'/>" +
                        "<target dev='${dev}' bus='virtio'/>${serial}</disk>"
            case VolumeTO.CEPH:   // VirtioCeph.to_xmlobject
                return "<disk type='network' device='disk'><driver name='qemu' type='raw' cache='none' discard='unmap'/>" +
                        "<source protocol='rbd' name='${v.installPath.replace('ceph://', '')}'/>" +
                        "<target dev='${dev}' bus='virtio'/>${serial}</disk>"
            case VolumeTO.BLOCK:  // block_volume: cache and io hard-coded
                return "<disk type='block' device='disk' snapshot='external'><driver name='qemu' type='${v.format ?: 'raw'}'" +
                        " cache='none' io='native'/><source dev='${v.installPath}'/>" +
                        "<target dev='${dev}' bus='virtio'/>${serial}</disk>"
            default:
                throw new IllegalArgumentException("no disk XML for deviceType ${v.deviceType}")
        }
    }

    static Map<String, Map<String, String>> drivers(String xml) {
        def doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes("UTF-8")))
        Map<String, Map<String, String>> out = [:]
        def disks = doc.getElementsByTagName("disk")
        for (int i = 0; i < disks.length; i++) {
            Element disk = (Element) disks.item(i)
            String serial = disk.getElementsByTagName("serial").item(0).textContent.trim()
            Element driver = (Element) disk.getElementsByTagName("driver").item(0)
            out[serial] = [io: driver.hasAttribute("io") ? driver.getAttribute("io") : null, cache: driver.getAttribute("cache")]
        }
        return out
    }

}
