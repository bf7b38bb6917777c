package org.zstack.aio.agent.domain;

import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;

/**
 * One start tag as the StAX cursor saw it (name, namespace declarations, attributes), so it can be written
 * later: either once we know it is empty ({@code <x/>} instead of {@code <x></x>}), or, inside a buffered
 * {@code <disk>}, once we know which disk it is. Plain arrays: this runs once per element of every patch.
 */
final class StreamedElement {

    final String prefix;
    final String namespace;
    final String localName;
    private final String[] nsPrefixes;
    private final String[] nsUris;
    private final String[] attrPrefixes;
    private final String[] attrNamespaces;
    private final String[] attrNames;
    private final String[] attrValues;

    private StreamedElement(String prefix, String namespace, String localName, String[] nsPrefixes, String[] nsUris,
                            String[] attrPrefixes, String[] attrNamespaces, String[] attrNames, String[] attrValues) {
        this.prefix = prefix;
        this.namespace = namespace;
        this.localName = localName;
        this.nsPrefixes = nsPrefixes;
        this.nsUris = nsUris;
        this.attrPrefixes = attrPrefixes;
        this.attrNamespaces = attrNamespaces;
        this.attrNames = attrNames;
        this.attrValues = attrValues;
    }

    /** Captures the reader's current START_ELEMENT. */
    static StreamedElement of(XMLStreamReader r) {
        int ns = r.getNamespaceCount();
        String[] nsPrefixes = new String[ns];
        String[] nsUris = new String[ns];
        for (int i = 0; i < ns; i++) {
            nsPrefixes[i] = r.getNamespacePrefix(i);
            nsUris[i] = r.getNamespaceURI(i);
        }
        int n = r.getAttributeCount();
        String[] p = new String[n];
        String[] u = new String[n];
        String[] l = new String[n];
        String[] v = new String[n];
        for (int i = 0; i < n; i++) {
            p[i] = r.getAttributePrefix(i);
            u[i] = r.getAttributeNamespace(i);
            l[i] = r.getAttributeLocalName(i);
            v[i] = r.getAttributeValue(i);
        }
        return new StreamedElement(r.getPrefix(), r.getNamespaceURI(), r.getLocalName(), nsPrefixes, nsUris,
                p, u, l, v);
    }

    /** A {@code <driver name='qemu'/>} for a disk that had none. */
    static StreamedElement driver() {
        return new StreamedElement(null, null, "driver", new String[0], new String[0],
                new String[]{null}, new String[]{null}, new String[]{"name"}, new String[]{"qemu"});
    }

    /** The value of an attribute without namespace, or null. */
    String attr(String name) {
        for (int i = 0; i < attrNames.length; i++) {
            if (name.equals(attrNames[i]) && isEmpty(attrNamespaces[i])) {
                return attrValues[i];
            }
        }
        return null;
    }

    /** A copy with io and cache set to these values (null: attribute removed), other attributes kept in order. */
    StreamedElement withIoAndCache(String io, String cache) {
        int keep = 0;
        for (int i = 0; i < attrNames.length; i++) {
            if (!isIoOrCache(i)) {
                keep++;
            }
        }
        int n = keep + (cache == null ? 0 : 1) + (io == null ? 0 : 1);
        String[] p = new String[n];
        String[] u = new String[n];
        String[] l = new String[n];
        String[] v = new String[n];
        int j = 0;
        for (int i = 0; i < attrNames.length; i++) {
            if (!isIoOrCache(i)) {
                p[j] = attrPrefixes[i];
                u[j] = attrNamespaces[i];
                l[j] = attrNames[i];
                v[j++] = attrValues[i];
            }
        }
        if (cache != null) {
            l[j] = "cache";
            v[j++] = cache;
        }
        if (io != null) {
            l[j] = "io";
            v[j] = io;
        }
        return new StreamedElement(prefix, namespace, localName, nsPrefixes, nsUris, p, u, l, v);
    }

    void write(XMLStreamWriter w, boolean empty) throws XMLStreamException {
        boolean qualified = !isEmpty(namespace) || !isEmpty(prefix);
        if (empty) {
            if (qualified) {
                w.writeEmptyElement(prefix == null ? "" : prefix, localName, namespace == null ? "" : namespace);
            } else {
                w.writeEmptyElement(localName);
            }
        } else if (qualified) {
            w.writeStartElement(prefix == null ? "" : prefix, localName, namespace == null ? "" : namespace);
        } else {
            w.writeStartElement(localName);
        }
        for (int i = 0; i < nsUris.length; i++) {
            if (isEmpty(nsPrefixes[i])) {
                w.writeDefaultNamespace(nsUris[i]);
            } else {
                w.writeNamespace(nsPrefixes[i], nsUris[i]);
            }
        }
        for (int i = 0; i < attrNames.length; i++) {
            if (isEmpty(attrNamespaces[i])) {
                w.writeAttribute(attrNames[i], attrValues[i]);
            } else {
                w.writeAttribute(attrPrefixes[i] == null ? "" : attrPrefixes[i], attrNamespaces[i], attrNames[i],
                        attrValues[i]);
            }
        }
    }

    private boolean isIoOrCache(int i) {
        return isEmpty(attrNamespaces[i]) && ("io".equals(attrNames[i]) || "cache".equals(attrNames[i]));
    }

    private static boolean isEmpty(String s) {
        return s == null || s.isEmpty();
    }
}
