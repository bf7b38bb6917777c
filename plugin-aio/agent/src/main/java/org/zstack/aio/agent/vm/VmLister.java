package org.zstack.aio.agent.vm;

import org.libvirt.Connect;
import org.libvirt.Domain;
import org.libvirt.DomainInfo;
import org.libvirt.LibvirtException;
import org.zstack.aio.agent.api.VmListCmd;
import org.zstack.aio.agent.api.VmListRsp;
import org.zstack.aio.agent.libvirt.AllDomainStats;
import org.zstack.aio.agent.domain.DomainXmlPatcher;
import org.zstack.aio.agent.http.AgentException;
import org.zstack.aio.agent.libvirt.LibvirtHost;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Lists the domains this agent manages — those named by a VM uuid (32 hex digits), so other domains on a shared
 * libvirtd are never reported — with their state and each disk's driver as the LIVE XML has it.
 */
public final class VmLister {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(VmLister.class.getName());
    static final Pattern VM_UUID = Pattern.compile("[0-9a-f]{32}");

    private final LibvirtHost libvirt;
    private final DomainXmlPatcher patcher = new DomainXmlPatcher();

    public VmLister(LibvirtHost libvirt) {
        this.libvirt = libvirt;
    }

    public VmListRsp list() {
        return list(new VmListCmd(false));
    }

    /**
     * With {@code blockStats}: every running disk's counters too, read for all domains in one libvirt call
     * ({@link AllDomainStats}) before the listing, so a domain started in between simply has none this time.
     */
    public VmListRsp list(VmListCmd cmd) {
        try {
            Connect c = libvirt.connect();
            boolean withStats = cmd != null && cmd.wantsBlockStats() && libvirt.isQemuDriver();
            long statsAt = System.currentTimeMillis();
            Map<String, AllDomainStats.DomainStats> stats = withStats ? readStats(c) : Map.of();
            List<VmListRsp.Domain> out = new ArrayList<>();
            for (int id : c.listDomains()) {
                Domain dom = lookupQuietly(c, id);
                if (dom != null) {
                    try {
                        if (VM_UUID.matcher(dom.getName()).matches()) out.add(describe(dom, stats.get(dom.getName())));
                    } catch (LibvirtException e) {
                        // gone between the listing and the lookup: it is simply not there any more
                    } finally {
                        LibvirtHost.freeQuietly(dom);
                    }
                }
            }
            for (String name : c.listDefinedDomains()) {
                if (VM_UUID.matcher(name).matches()) out.add(new VmListRsp.Domain(name, "shutoff", List.of()));
            }
            return new VmListRsp(out, withStats ? statsAt : null);
        } catch (LibvirtException e) {
            throw AgentException.failed("libvirt could not list domains: " + LibvirtHost.message(e),
                    "check libvirtd on this host", e);
        }
    }

    private static Map<String, AllDomainStats.DomainStats> readStats(Connect c) {
        try {
            return AllDomainStats.read(c);
        } catch (RuntimeException e) { // the listing still serves the state tracker; the sample is simply missed
            LOG.warning("block counters not read this time: " + e.getMessage());
            return Map.of();
        }
    }

    private VmListRsp.Domain describe(Domain dom, AllDomainStats.DomainStats stats) throws LibvirtException {
        DomainInfo.DomainState st = dom.getInfo().state;
        String state = st.name().replace("VIR_DOMAIN_", "").toLowerCase(Locale.ROOT);
        List<VmListRsp.Disk> disks = new ArrayList<>();
        if (dom.isActive() == 1) {
            patcher.readDrivers(dom.getXMLDesc(0)).forEach(d -> disks.add(new VmListRsp.Disk(d.target(), d.source(),
                    d.io(), d.cache(), stats == null ? null : stats.disks().get(d.target()))));
        }
        return new VmListRsp.Domain(dom.getName(), state, disks, stats == null ? null : stats.domainId());
    }

    private static Domain lookupQuietly(Connect c, int id) {
        try {
            return c.domainLookupByID(id);
        } catch (LibvirtException e) {
            return null;
        }
    }
}
