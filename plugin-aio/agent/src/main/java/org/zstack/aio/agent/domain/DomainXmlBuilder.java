package org.zstack.aio.agent.domain;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.zstack.aio.agent.api.GuestBoot;
import java.util.Locale;

/**
 * Builds domain XML with DOM, so names and paths are always escaped correctly (never string concatenation).
 * The domain is the minimum that starts fast on real QEMU (see docs/agent.md): machine pc, ACPI (needed for
 * disk hot-plug), virtio disks, no memory balloon, no graphics element at all (type='none' is invalid), no network.
 */
public final class DomainXmlBuilder {

    /** Namespace of the {@code <metadata>} element that marks a domain as created by this agent. */
    public static final String OWNER_NS = "urn:zstack:aio:agent:1";
    public static final String OWNER_ELEMENT = "created-by-aio-agent";
    private static final String OWNER_PREFIX = "zstack";

    private final XmlCodec codec = new XmlCodec();

    public String build(DomainSpec spec) {
        Document doc = codec.newDocument();
        Element domain = doc.createElement("domain");
        domain.setAttribute("type", spec.type());
        doc.appendChild(domain);
        text(domain, "name", spec.name());
        if (spec.title() != null && !spec.title().isBlank()) {
            // libvirt refuses newlines in a title; the VM's name is a label, so flatten it.
            text(domain, "title", spec.title().replaceAll("[\\r\\n]+", " "));
        }
        // KiB is libvirt's native unit; rounding up keeps a byte count that is not a KiB multiple valid.
        Element memory = text(domain, "memory", Long.toString((spec.memoryBytes() + 1023) / 1024));
        memory.setAttribute("unit", "KiB");
        text(domain, "vcpu", Integer.toString(spec.cpus()));

        Element os = child(domain, "os");
        Element type = text(os, "type", "hvm");
        type.setAttribute("arch", "x86_64");
        type.setAttribute("machine", "pc");
        GuestBoot boot = spec.boot();
        if (boot == null) {
            child(os, "boot").setAttribute("dev", "hd");
        } else {
            text(os, "kernel", boot.kernel());
            if (boot.initrd() != null) text(os, "initrd", boot.initrd());
            if (boot.cmdline() != null) text(os, "cmdline", boot.cmdline());
        }

        child(child(domain, "features"), "acpi");

        // The mark by which the agent later recognises its own domains (it stops and changes no others).
        Element owner = child(child(domain, "metadata"), OWNER_PREFIX + ":" + OWNER_ELEMENT);
        owner.setAttribute("xmlns:" + OWNER_PREFIX, OWNER_NS);

        Element devices = child(domain, "devices");
        for (DiskSpec disk : spec.disks()) {
            devices.appendChild(diskElement(doc, disk));
        }
        if (boot != null && boot.consoleLog() != null) {
            // the guest's ttyS0 into a file on the host: how a caller reads what a kernel-booted guest printed
            Element serial = child(devices, "serial");
            serial.setAttribute("type", "file");
            child(serial, "source").setAttribute("path", boot.consoleLog());
            child(serial, "target").setAttribute("port", "0");
        }
        child(devices, "memballoon").setAttribute("model", "none");
        return codec.write(doc);
    }

    /** A lone {@code <disk>} element, for hot-plug (attachDeviceFlags takes a device XML). */
    public String diskXml(DiskSpec disk) {
        Document doc = codec.newDocument();
        doc.appendChild(diskElement(doc, disk));
        return codec.write(doc);
    }

    private static Element diskElement(Document doc, DiskSpec disk) {
        Element e = doc.createElement("disk");
        e.setAttribute("type", disk.kind().name().toLowerCase(Locale.ROOT));
        e.setAttribute("device", "disk");

        Element driver = child(e, "driver");
        driver.setAttribute("name", "qemu");
        // An rbd image is always raw to QEMU; a qcow2 header inside rbd is not something ZStack produces.
        driver.setAttribute("type", disk.kind() == DiskSpec.Kind.NETWORK ? "raw" : disk.format());
        if (disk.cache() != null) {
            driver.setAttribute("cache", disk.cache());
        }
        if (disk.io() != null) {
            driver.setAttribute("io", disk.io());
        }

        Element source = child(e, "source");
        switch (disk.kind()) {
            case FILE -> source.setAttribute("file", disk.source());
            case BLOCK -> source.setAttribute("dev", disk.source());
            case NETWORK -> {
                source.setAttribute("protocol", "rbd");
                source.setAttribute("name", disk.source());
            }
        }
        Element target = child(e, "target");
        target.setAttribute("dev", disk.target());
        target.setAttribute("bus", "virtio");
        return e;
    }

    private static Element child(Element parent, String name) {
        Element c = parent.getOwnerDocument().createElement(name);
        parent.appendChild(c);
        return c;
    }

    private static Element text(Element parent, String name, String value) {
        Element c = child(parent, name);
        c.setTextContent(value);
        return c;
    }
}
