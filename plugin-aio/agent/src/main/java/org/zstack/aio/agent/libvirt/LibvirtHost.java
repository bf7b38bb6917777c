package org.zstack.aio.agent.libvirt;

import org.libvirt.Connect;
import org.libvirt.Domain;
import org.libvirt.Error;
import org.libvirt.LibvirtException;
import org.libvirt.event.LifecycleListener;
import org.libvirt.jna.Libvirt;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The agent's one libvirt connection, owned by one agent instance (opened in the constructor, closed in
 * {@link #close()}). libvirt connections are thread-safe in the C library; the lock here only guards
 * replacing a connection that died (libvirtd restarted) so two requests do not both reopen it.
 */
public final class LibvirtHost implements AutoCloseable {

    private final String uri;
    /**
     * libvirt prints every error to stderr unless the connection has its own handler; the agent reports the
     * errors it cares about in its answers (and "domain not found" is an expected answer of lookups). Kept in a
     * field because JNA callbacks that get garbage collected crash the JVM when called.
     */
    private final Libvirt.VirErrorCallback quietErrors = (userData, error) -> { };
    private Connect conn;
    private String domainType;
    /** Re-registered on every new connection (a libvirtd restart replaces it). */
    private LifecycleListener lifecycle;

    public LibvirtHost(String uri) throws LibvirtException {
        this.uri = uri;
        if (isQemuDriver()) LibvirtEventLoop.ensureRunning(); // before the first connection, so it delivers events
        this.conn = open();
    }

    public String uri() {
        return uri;
    }

    /** The qemu driver (real QEMU); false for libvirt's test driver. */
    public boolean isQemuDriver() {
        return uri.startsWith("qemu");
    }

    public synchronized Connect connect() throws LibvirtException {
        boolean alive;
        try {
            alive = conn != null && conn.isAlive();
        } catch (LibvirtException e) {
            alive = false;
        }
        if (!alive) {
            closeQuietly();
            conn = open();
        }
        return conn;
    }

    private Connect open() throws LibvirtException {
        Connect c = new Connect(uri);
        c.setConnectionErrorCallback(quietErrors);
        if (lifecycle != null) c.addLifecycleListener(lifecycle);
        return c;
    }

    /**
     * Delivers every domain lifecycle event of this connection (and of the connections that replace it) to
     * {@code listener}, on libvirt's event thread. False when this process cannot get libvirt events.
     */
    public synchronized boolean onLifecycle(LifecycleListener listener) throws LibvirtException {
        if (!isQemuDriver() || !LibvirtEventLoop.ensureRunning()) return false; // the test driver is polled only
        this.lifecycle = listener;
        connect().addLifecycleListener(listener);
        return true;
    }

    /**
     * kvm when libvirt offers it for x86_64 (it does only when /dev/kvm is usable), else qemu (TCG), else
     * whatever the driver offers first (the test driver offers "test"). Probed once per connection owner.
     */
    public synchronized String domainType() throws LibvirtException {
        if (domainType == null) {
            List<String> types = offeredDomainTypes(connect().getCapabilities());
            domainType = types.contains("kvm") ? "kvm" : types.contains("qemu") ? "qemu"
                    : types.isEmpty() ? "qemu" : types.get(0);
        }
        return domainType;
    }

    static List<String> offeredDomainTypes(String capabilitiesXml) {
        List<String> types = new ArrayList<>();
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            NodeList guests = f.newDocumentBuilder().parse(new InputSource(new StringReader(capabilitiesXml)))
                    .getElementsByTagName("guest");
            for (int i = 0; i < guests.getLength(); i++) {
                Element guest = (Element) guests.item(i);
                NodeList arches = guest.getElementsByTagName("arch");
                for (int a = 0; a < arches.getLength(); a++) {
                    Element arch = (Element) arches.item(a);
                    if (!"x86_64".equals(arch.getAttribute("name"))) {
                        continue;
                    }
                    NodeList domains = arch.getElementsByTagName("domain");
                    for (int d = 0; d < domains.getLength(); d++) {
                        String type = ((Element) domains.item(d)).getAttribute("type");
                        if (!types.contains(type)) {
                            types.add(type);
                        }
                    }
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot read libvirt capabilities: " + e.getMessage(), e);
        }
        return types;
    }

    public Optional<Domain> lookup(String name) throws LibvirtException {
        try {
            return Optional.of(connect().domainLookupByName(name));
        } catch (LibvirtException e) {
            if (isNoDomain(e)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * Destroys (when running) and undefines the domain; a domain that is not there is fine, so a stop or a
     * cleanup after a failed start can always be repeated.
     *
     * @return whether a domain existed
     */
    public boolean destroyAndUndefine(String name) throws LibvirtException {
        Optional<Domain> found = lookup(name);
        if (found.isEmpty()) {
            return false;
        }
        Domain dom = found.get();
        try {
            if (dom.isActive() == 1) {
                try {
                    dom.destroy();
                } catch (LibvirtException e) {
                    if (!isNotRunning(e)) {
                        throw e;
                    }
                }
            }
            try {
                dom.undefine();
            } catch (LibvirtException e) {
                // A transient domain disappears with destroy; undefining it then says "not persistent".
                if (!isNoDomain(e) && !isNotPersistent(e)) {
                    throw e;
                }
            }
        } finally {
            freeQuietly(dom);
        }
        return true;
    }

    /**
     * Whether this agent created the domain: its XML carries the agent's {@code <metadata>} mark
     * ({@link org.zstack.aio.agent.domain.DomainXmlBuilder#OWNER_NS}). Domains defined by anyone else (virsh, another
     * tool) are not the platform's and are never stopped, changed or replaced by the agent.
     */
    public static boolean isOwned(Domain dom) throws LibvirtException {
        return hasOwnerMark(dom.getXMLDesc(0));
    }

    static boolean hasOwnerMark(String domainXml) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setNamespaceAware(true);
            NodeList marks = f.newDocumentBuilder().parse(new InputSource(new StringReader(domainXml)))
                    .getElementsByTagNameNS(org.zstack.aio.agent.domain.DomainXmlBuilder.OWNER_NS,
                            org.zstack.aio.agent.domain.DomainXmlBuilder.OWNER_ELEMENT);
            for (int i = 0; i < marks.getLength(); i++) {
                org.w3c.dom.Node parent = marks.item(i).getParentNode();
                if (parent != null && "metadata".equals(parent.getLocalName())
                        && parent.getParentNode() == parent.getOwnerDocument().getDocumentElement()) {
                    return true;
                }
            }
            return false;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read a domain's XML: " + e.getMessage(), e);
        }
    }

    /** Refuses (403) when a domain of that name exists and this agent did not create it. */
    public void requireOwnedOrAbsent(String name, String action) throws LibvirtException {
        Optional<Domain> found = lookup(name);
        if (found.isEmpty()) {
            return;
        }
        try {
            if (!isOwned(found.get())) {
                throw org.zstack.aio.agent.http.AgentException.forbidden("domain " + name
                        + " was not created by the aio agent; refusing to " + action + " it",
                        "the agent only manages domains it defined; manage this one with virsh, or give the VM another uuid");
            }
        } finally {
            freeQuietly(found.get());
        }
    }

    public static String message(LibvirtException e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? String.valueOf(e.getError()) : m.strip();
    }

    public static void freeQuietly(Domain dom) {
        try {
            dom.free();
        } catch (LibvirtException | RuntimeException ignored) {
            // freeing a handle only releases memory; nothing to report
        }
    }

    private static boolean isNoDomain(LibvirtException e) {
        return e.getError() != null && e.getError().getCode() == Error.ErrorNumber.VIR_ERR_NO_DOMAIN;
    }

    private static boolean isNotRunning(LibvirtException e) {
        return e.getError() != null && e.getError().getCode() == Error.ErrorNumber.VIR_ERR_OPERATION_INVALID;
    }

    private static boolean isNotPersistent(LibvirtException e) {
        return e.getError() != null && e.getError().getCode() == Error.ErrorNumber.VIR_ERR_OPERATION_INVALID;
    }

    private void closeQuietly() {
        if (conn != null) {
            if (lifecycle != null) {
                // libvirt-java calls a listener of a closed connection with a freed handle (NPE, then abort):
                // deregister it while the connection is still open
                try {
                    conn.removeLifecycleListener(lifecycle);
                } catch (LibvirtException | RuntimeException ignored) {
                    // a dead connection has no listeners left to remove
                }
            }
            try {
                conn.close();
            } catch (LibvirtException | RuntimeException ignored) {
                // the connection is being replaced or the agent is stopping; nothing useful to do
            }
            conn = null;
        }
    }

    @Override
    public synchronized void close() {
        closeQuietly();
    }
}
