package org.zstack.aio.plugin;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What conf/aio/read-back.sh printed for one host, read: for each VM its libvirt domain's state and live XML
 * ({@code virsh dumpxml}, the standard domain format) and its QEMU log since its last start, or why it could not be
 * read. Platform-free; the use case compares it with the stored decisions ({@link DiskIoModes#readBack}).
 */
public final class ReadBack {

    static final String MARK = "--- aio ";

    private final Map<String, Domain> domains;
    private final List<String> errors;

    private ReadBack(Map<String, Domain> domains, List<String> errors) {
        this.domains = Collections.unmodifiableMap(domains);
        this.errors = Collections.unmodifiableList(errors);
    }

    /** The script's output, read; lines outside its sections (an SSH banner) are ignored. */
    public static ReadBack parse(String output) {
        Map<String, Domain> domains = new LinkedHashMap<String, Domain>();
        List<String> errors = new ArrayList<String>();
        if (output == null) return new ReadBack(domains, errors);
        String name = null;
        String state = null;
        StringBuilder xml = null;
        StringBuilder log = null;
        for (String line : output.split("\n", -1)) {
            if (line.startsWith(MARK) && line.trim().endsWith("---")) {
                if (name != null) domains.put(name, new Domain(name, state, xml.toString(), log == null ? null : log.toString()));
                name = null;
                xml = log = null;
                String body = line.trim();
                body = body.substring(MARK.length(), body.length() - 3).trim();
                if (body.startsWith("domain ")) {
                    String[] w = body.substring("domain ".length()).trim().split(" ", 2);
                    name = w[0];
                    state = w.length > 1 ? w[1] : null;
                    xml = new StringBuilder();
                } else if (body.startsWith("log ")) {
                    // the log follows the domain it belongs to
                    String of = body.substring("log ".length()).trim();
                    Domain d = domains.remove(of);
                    if (d != null) {
                        name = d.name;
                        state = d.state;
                        xml = new StringBuilder(d.xml);
                        log = new StringBuilder();
                    }
                } else if (body.startsWith("error ")) {
                    errors.add(body.substring("error ".length()));
                }
                continue;
            }
            if (log != null) log.append(line).append('\n');
            else if (xml != null) xml.append(line).append('\n');
        }
        if (name != null) domains.put(name, new Domain(name, state, xml.toString(), log == null ? null : log.toString()));
        return new ReadBack(domains, errors);
    }

    /** The domain of VM {@code name}, or null when the script printed none. */
    public Domain domain(String name) { return domains.get(name); }

    public Map<String, Domain> domains() { return domains; }

    /** {@code <name>: <why>} for each VM the script could not read. */
    public List<String> errors() { return errors; }

    /** Why the script could not read VM {@code name}, or null. */
    public String error(String name) {
        for (String e : errors) if (e.startsWith(name + ":")) return e.substring(name.length() + 1).trim();
        return null;
    }

    /** One VM's domain as read: its state, live XML and QEMU log since its start. */
    public static final class Domain {
        private final String name;
        private final String state;
        private final String xml;
        private final String log;

        Domain(String name, String state, String xml, String log) {
            this.name = name;
            this.state = state;
            this.xml = xml;
            this.log = log;
        }

        public String name() { return name; }

        /** virsh domstate's word (running, paused, shut-off, ...) */
        public String state() { return state; }

        public boolean running() { return "running".equals(state) || "paused".equals(state); }

        public String xml() { return xml; }

        /** The QEMU log since the domain's last start; null when the host has none. */
        public String log() { return log; }

        /** The disks of the live XML, in its order. @throws IllegalArgumentException on XML that does not parse */
        public List<RunningDisk> disks() { return RunningDisk.parse(xml); }
    }

    /** One {@code <disk>} of a domain's XML as libvirt reports it. */
    public static final class RunningDisk {
        private final String type;
        private final String device;
        private final String serial;
        private final String source;
        private final String target;
        private final String io;
        private final String cache;

        RunningDisk(String type, String device, String serial, String source, String target, String io, String cache) {
            this.type = type;
            this.device = device;
            this.serial = serial;
            this.source = source;
            this.target = target;
            this.io = io;
            this.cache = cache;
        }

        /** file, block, network, volume */
        public String type() { return type; }

        /** disk, cdrom, floppy, lun */
        public String device() { return device; }

        /** the {@code <serial>}: the volume's uuid where ZStack's agent wrote it; null: none */
        public String serial() { return serial; }

        /** source file, dev or (network) name */
        public String source() { return source; }

        public String target() { return target; }

        /** the driver's io attribute; null: none (QEMU's default, its thread pool) */
        public String io() { return io; }

        public String cache() { return cache; }

        /**
         * Parses a libvirt domain XML (no DTD, no external entity: the text comes from a host).
         *
         * @throws IllegalArgumentException when it is not a domain XML
         */
        static List<RunningDisk> parse(String xml) {
            Document doc;
            try {
                DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
                f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
                f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
                f.setXIncludeAware(false);
                f.setExpandEntityReferences(false);
                DocumentBuilder b = f.newDocumentBuilder();
                b.setErrorHandler(new org.xml.sax.helpers.DefaultHandler() {
                    @Override
                    public void fatalError(org.xml.sax.SAXParseException e) throws SAXException { throw e; }
                });
                doc = b.parse(new InputSource(new StringReader(xml)));
            } catch (ParserConfigurationException | SAXException | IOException e) {
                throw new IllegalArgumentException("not a domain XML: " + e.getMessage(), e);
            }
            Element root = doc.getDocumentElement();
            if (!"domain".equals(root.getTagName())) throw new IllegalArgumentException("not a domain XML: <" + root.getTagName() + ">");
            List<RunningDisk> out = new ArrayList<RunningDisk>();
            for (Element devices : children(root, "devices")) {
                for (Element disk : children(devices, "disk")) {
                    Element driver = first(disk, "driver");
                    Element source = first(disk, "source");
                    Element target = first(disk, "target");
                    Element serial = first(disk, "serial");
                    String src = source == null ? null : nonEmpty(source.getAttribute("file"));
                    if (src == null && source != null) src = nonEmpty(source.getAttribute("dev"));
                    if (src == null && source != null) src = nonEmpty(source.getAttribute("name"));
                    out.add(new RunningDisk(nonEmpty(disk.getAttribute("type")), nonEmpty(disk.getAttribute("device")),
                            serial == null ? null : nonEmpty(serial.getTextContent().trim()), src,
                            target == null ? null : nonEmpty(target.getAttribute("dev")),
                            driver == null ? null : nonEmpty(driver.getAttribute("io")),
                            driver == null ? null : nonEmpty(driver.getAttribute("cache"))));
                }
            }
            return out;
        }

        private static List<Element> children(Element parent, String tag) {
            List<Element> out = new ArrayList<Element>();
            NodeList l = parent.getChildNodes();
            for (int i = 0; i < l.getLength(); i++) {
                Node n = l.item(i);
                if (n instanceof Element && tag.equals(((Element) n).getTagName())) out.add((Element) n);
            }
            return out;
        }

        private static Element first(Element parent, String tag) {
            List<Element> l = children(parent, tag);
            return l.isEmpty() ? null : l.get(0);
        }

        private static String nonEmpty(String s) {
            return s == null || s.isEmpty() ? null : s;
        }

        @Override
        public String toString() {
            return "RunningDisk[" + target + " " + type + "/" + device + " serial=" + serial + " io=" + io + " cache=" + cache + "]";
        }
    }
}
