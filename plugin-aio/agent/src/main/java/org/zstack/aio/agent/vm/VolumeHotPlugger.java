package org.zstack.aio.agent.vm;

import org.libvirt.Domain;
import org.libvirt.Error;
import org.libvirt.LibvirtException;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.VmAttachVolumeCmd;
import org.zstack.aio.agent.domain.DiskDriver;
import org.zstack.aio.agent.domain.DiskSpec;
import org.zstack.aio.agent.domain.DiskTargets;
import org.zstack.aio.agent.domain.DomainXmlBuilder;
import org.zstack.aio.agent.domain.DomainXmlPatcher;
import org.zstack.aio.agent.http.AgentException;
import org.zstack.aio.agent.libvirt.LibvirtHost;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Hot-plugs a disk into a domain with the same io candidate fallback as a start: a refused attach changes
 * nothing in the domain, so the next candidate is simply tried. The answer is read back from the live XML.
 */
public final class VolumeHotPlugger {

    private static final int LIVE = Domain.DeviceModifyFlags.LIVE;
    private static final int CONFIG = Domain.DeviceModifyFlags.CONFIG;

    private final LibvirtHost libvirt;
    private final DomainXmlBuilder builder = new DomainXmlBuilder();
    private final DomainXmlPatcher patcher = new DomainXmlPatcher();
    private final InjectedIoRefusal injected;

    public VolumeHotPlugger(LibvirtHost libvirt, Set<String> refusedIoModes) {
        this.libvirt = libvirt;
        this.injected = new InjectedIoRefusal(refusedIoModes);
    }

    public DiskResult attach(VmAttachVolumeCmd cmd) {
        if (cmd.vmUuid() == null || !VmStarter.SAFE_NAME.matcher(cmd.vmUuid()).matches()) {
            throw AgentException.badCommand("bad vmUuid '" + cmd.vmUuid() + "'", "send the uuid of a running VM");
        }
        DiskSpecs.validate(cmd.disk());
        String target = DiskTargets.virtio(cmd.disk().deviceId());
        DiskIoCursor cursor = new DiskIoCursor(cmd.disk(), target);
        Domain dom = null;
        try {
            dom = libvirt.lookup(cmd.vmUuid()).orElseThrow(() -> AgentException.badCommand(
                    "no domain " + cmd.vmUuid() + " on this host", "start the VM first; a stopped VM has no domain"));
            if (!LibvirtHost.isOwned(dom)) {
                throw AgentException.forbidden("domain " + cmd.vmUuid() + " was not created by the aio agent; refusing "
                        + "to attach a disk to it", "the agent only changes domains it defined");
            }
            boolean running = dom.isActive() == 1;
            if (drivers(dom).stream().anyMatch(d -> target.equals(d.target()))) {
                throw AgentException.badCommand("VM " + cmd.vmUuid() + " already has a disk " + target,
                        "use a free deviceId");
            }
            // Live for the running QEMU, config so the disk survives a reboot of the guest while defined.
            int flags = running ? LIVE | CONFIG : CONFIG;
            while (true) {
                String error = tryAttach(dom, DiskSpecs.toSpec(cmd.disk(), cursor.currentIo()), flags);
                if (error == null) {
                    break;
                }
                if (IoFallbackPlanner.toStepDown(List.of(cursor), error).isEmpty()) {
                    cursor.recordFinalRefusal(error);
                    throw AgentException.failed("attaching " + cmd.disk().volumeUuid() + " to VM " + cmd.vmUuid()
                            + " failed: " + error, VmStarter.attemptsSummary(List.of(cursor)));
                }
                cursor.stepDown(error);
            }
            DiskDriver applied = drivers(dom).stream().filter(d -> target.equals(d.target())).findFirst()
                    .orElseThrow(() -> AgentException.failed("disk " + target + " is not in VM " + cmd.vmUuid()
                            + " after a successful attach", "look at the libvirt log"));
            return new DiskResult(cmd.disk().volumeUuid(), applied.io(), applied.cache(), cursor.attempts());
        } catch (LibvirtException e) {
            throw AgentException.failed("libvirt failed while attaching to VM " + cmd.vmUuid() + ": "
                    + LibvirtHost.message(e), VmStarter.attemptsSummary(List.of(cursor)), e);
        } finally {
            if (dom != null) {
                LibvirtHost.freeQuietly(dom);
            }
        }
    }

    /** @return null when attached, else the refusal; a driver without hot-plug is a failure, not a refusal */
    private String tryAttach(Domain dom, DiskSpec spec, int flags) throws LibvirtException {
        Optional<String> refusal = injected.check(List.of(spec));
        if (refusal.isPresent()) {
            return refusal.get();
        }
        try {
            dom.attachDeviceFlags(builder.diskXml(spec), flags);
            return null;
        } catch (LibvirtException e) {
            if (e.getError() != null && e.getError().getCode() == Error.ErrorNumber.VIR_ERR_NO_SUPPORT) {
                if (libvirt.uri().startsWith("test:")) {
                    return replugOnTestDriver(dom, spec);
                }
                throw e;
            }
            return LibvirtHost.message(e);
        }
    }

    /**
     * libvirt's test driver (the demo without QEMU) has no hot-plug. There is no guest to disturb, so the disk is
     * added by redefining and restarting the fake domain; libvirt still validates the disk XML, and the answer is
     * still read back from the live XML. Never used for a real hypervisor.
     */
    private String replugOnTestDriver(Domain dom, DiskSpec spec) throws LibvirtException {
        String withDisk = patcher.addDisk(dom.getXMLDesc(0), builder.diskXml(spec));
        try {
            libvirt.connect().domainDefineXML(withDisk).free();
        } catch (LibvirtException e) {
            return LibvirtHost.message(e);
        }
        if (dom.isActive() == 1) {
            dom.destroy();
            dom.create();
        }
        return null;
    }

    private List<DiskDriver> drivers(Domain dom) throws LibvirtException {
        return patcher.readDrivers(dom.getXMLDesc(0));
    }
}
