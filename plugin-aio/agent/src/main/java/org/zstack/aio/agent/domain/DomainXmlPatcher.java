package org.zstack.aio.agent.domain;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Changes the {@code <driver io cache>} of disks in an existing domain XML and reads them back. Everything
 * else in the XML (what libvirt added: addresses, aliases, controllers) is kept as it is, which is why this
 * patches the document instead of rebuilding it.
 */
public final class DomainXmlPatcher {

    /**
     * The driver settings one disk should end with.
     *
     * @param disk  the disk's target dev (vda) or its source path
     * @param io    the io attribute; null removes it
     * @param cache the cache attribute; null removes it
     */
    public record DriverChange(String disk, String io, String cache) {
    }

    private final XmlCodec codec = new XmlCodec();

    /**
     * Applies all changes in one parse/write. Throws {@link UnknownDiskException} (nothing changed) when a
     * change names a disk the domain does not have.
     */
    public String patch(String domainXml, List<DriverChange> changes) {
        Document doc = codec.parse(domainXml);
        Map<String, Element> disks = indexDisks(doc);
        for (DriverChange change : changes) {
            Element disk = disks.get(change.disk());
            if (disk == null) {
                throw new UnknownDiskException(change.disk(), targets(disks));
            }
            Element driver = driverOf(disk, true);
            set(driver, "io", change.io());
            set(driver, "cache", change.cache());
        }
        return codec.write(doc);
    }

    /**
     * Adds a {@code <disk>} element (as {@link DomainXmlBuilder#diskXml} makes it) to a domain's devices. Used to
     * emulate hot-plug on libvirt's test driver, which has no attachDeviceFlags.
     */
    public String addDisk(String domainXml, String diskXml) {
        Document doc = codec.parse(domainXml);
        Element disk = (Element) doc.importNode(codec.parse(diskXml).getDocumentElement(), true);
        String target = targetOf(disk);
        if (target != null && indexDisks(doc).containsKey(target)) {
            throw new IllegalArgumentException("the domain already has a disk " + target);
        }
        NodeList devices = doc.getElementsByTagName("devices");
        if (devices.getLength() == 0) {
            throw new IllegalArgumentException("the domain XML has no <devices>");
        }
        Element parent = (Element) devices.item(0);
        // after the last disk, so libvirt's device order (disks first) stays
        List<Element> existing = diskElements(doc);
        Node before = existing.isEmpty() ? parent.getFirstChild() : existing.get(existing.size() - 1).getNextSibling();
        parent.insertBefore(disk, before);
        return codec.write(doc);
    }

    /** Each disk's driver io/cache in document order. */
    public List<DiskDriver> readDrivers(String domainXml) {
        Document doc = codec.parse(domainXml);
        List<DiskDriver> out = new ArrayList<>();
        for (Element disk : diskElements(doc)) {
            Element driver = driverOf(disk, false);
            out.add(new DiskDriver(targetOf(disk), sourceOf(disk),
                    driver == null ? null : attr(driver, "io"), driver == null ? null : attr(driver, "cache")));
        }
        return out;
    }

    private static Map<String, Element> indexDisks(Document doc) {
        Map<String, Element> byKey = new LinkedHashMap<>();
        for (Element disk : diskElements(doc)) {
            String target = targetOf(disk);
            if (target != null) {
                byKey.put(target, disk);
            }
            String source = sourceOf(disk);
            if (source != null) {
                byKey.putIfAbsent(source, disk);
            }
        }
        return byKey;
    }

    private static List<String> targets(Map<String, Element> disks) {
        return disks.values().stream().distinct().map(DomainXmlPatcher::targetOf).toList();
    }

    /** Only {@code device='disk'} under devices: cdroms and floppies have no io mode worth deciding. */
    private static List<Element> diskElements(Document doc) {
        List<Element> out = new ArrayList<>();
        NodeList nodes = doc.getElementsByTagName("disk");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element disk = (Element) nodes.item(i);
            String device = disk.getAttribute("device");
            if (device.isEmpty() || "disk".equals(device)) {
                out.add(disk);
            }
        }
        return out;
    }

    private static Element driverOf(Element disk, boolean create) {
        Element driver = firstChild(disk, "driver");
        if (driver == null && create) {
            // libvirt expects driver first among the disk's children; its order does not matter to it, but keep
            // the XML the way libvirt itself writes it.
            driver = disk.getOwnerDocument().createElement("driver");
            driver.setAttribute("name", "qemu");
            disk.insertBefore(driver, disk.getFirstChild());
        }
        return driver;
    }

    private static String targetOf(Element disk) {
        Element target = firstChild(disk, "target");
        return target == null ? null : attr(target, "dev");
    }

    private static String sourceOf(Element disk) {
        Element source = firstChild(disk, "source");
        if (source == null) {
            return null;
        }
        for (String a : new String[]{"file", "dev", "name"}) {
            String v = attr(source, a);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private static Element firstChild(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && name.equals(e.getTagName())) {
                return e;
            }
        }
        return null;
    }

    private static String attr(Element e, String name) {
        return e.hasAttribute(name) ? e.getAttribute(name) : null;
    }

    private static void set(Element e, String name, String value) {
        if (value == null) {
            e.removeAttribute(name);
        } else {
            e.setAttribute(name, value);
        }
    }
}
