package org.zstack.aio.agent.domain;

import org.w3c.dom.Document;
import org.w3c.dom.ls.DOMImplementationLS;
import org.w3c.dom.ls.LSOutput;
import org.w3c.dom.ls.LSSerializer;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;

/**
 * Parses and writes domain XML with the JDK's DOM. One instance per owner (builder, patcher): the factory is
 * configured once because looking it up is the expensive part, and it is never shared through static state.
 * DOCTYPEs are refused: a domain XML never has one, and refusing them rules out entity tricks.
 */
final class XmlCodec {

    private final DocumentBuilderFactory factory;

    XmlCodec() {
        factory = DocumentBuilderFactory.newInstance();
        try {
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK XML parser lacks secure processing", e);
        }
        factory.setNamespaceAware(false);
        factory.setExpandEntityReferences(false);
    }

    Document parse(String xml) {
        try {
            return builder().parse(new InputSource(new StringReader(xml)));
        } catch (SAXException | IOException e) {
            throw new IllegalArgumentException("not a well-formed domain XML: " + e.getMessage(), e);
        }
    }

    Document newDocument() {
        return builder().newDocument();
    }

    String write(Document doc) {
        DOMImplementationLS ls = (DOMImplementationLS) doc.getImplementation();
        LSSerializer serializer = ls.createLSSerializer();
        serializer.getDomConfig().setParameter("xml-declaration", false);
        StringWriter out = new StringWriter(4096);
        LSOutput output = ls.createLSOutput();
        output.setCharacterStream(out);
        serializer.write(doc, output);
        return out.toString();
    }

    private DocumentBuilder builder() {
        try {
            // DocumentBuilder is not thread-safe, the configured factory is cheap to ask for a new one.
            synchronized (factory) {
                return factory.newDocumentBuilder();
            }
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }
}
