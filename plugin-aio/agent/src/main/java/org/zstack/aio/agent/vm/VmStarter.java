package org.zstack.aio.agent.vm;

import org.libvirt.Domain;
import org.libvirt.LibvirtException;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.GuestBoot;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.agent.api.VmStartRsp;
import org.zstack.aio.agent.domain.DiskDriver;
import org.zstack.aio.agent.domain.DiskSpec;
import org.zstack.aio.agent.domain.DiskTargets;
import org.zstack.aio.agent.domain.DomainSpec;
import org.zstack.aio.agent.domain.DomainXmlBuilder;
import org.zstack.aio.agent.domain.DomainXmlPatcher;
import org.zstack.aio.agent.http.AgentException;
import org.zstack.aio.agent.libvirt.LibvirtHost;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Defines and starts a domain named by the VM uuid with each disk's best io candidate, stepping down a disk's
 * mode when libvirt or QEMU refuses it (see {@link IoFallbackPlanner}), and answers what the running domain
 * really has. A start that fails in the end leaves no domain behind: the server keeps the VM stopped, and
 * a domain left defined would make the next start collide with it.
 */
public final class VmStarter {

    private static final Logger LOG = Logger.getLogger(VmStarter.class.getName());
    static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    private static final long MIN_MEMORY = 16L * 1024 * 1024;

    private final LibvirtHost libvirt;
    private final DomainXmlBuilder builder = new DomainXmlBuilder();
    private final DomainXmlPatcher patcher = new DomainXmlPatcher();
    private final InjectedIoRefusal injected;
    private final QemuPids pids;

    public VmStarter(LibvirtHost libvirt, Set<String> refusedIoModes, QemuPids pids) {
        this.libvirt = libvirt;
        this.injected = new InjectedIoRefusal(refusedIoModes);
        this.pids = pids;
    }

    public VmStartRsp start(VmStartCmd cmd) {
        validate(cmd);
        String name = cmd.vmUuid();
        List<DiskIoCursor> cursors = cmd.disks().stream()
                .map(d -> new DiskIoCursor(d, DiskTargets.virtio(d.deviceId()))).toList();
        try {
            // before the try below: its cleanup would remove a domain that is not ours
            libvirt.requireOwnedOrAbsent(name, "replace");
        } catch (LibvirtException e) {
            throw AgentException.failed("libvirt failed while looking up VM " + name + ": " + LibvirtHost.message(e),
                    "retry the start", e);
        }
        try {
            // The server starts only VMs it believes stopped, so a domain of ours with this name is a left-over of
            // an agent that died mid-start: clear it, the server's view is the truth. Anyone else's is left alone.
            if (libvirt.destroyAndUndefine(name)) {
                LOG.info("removed a stale domain " + name + " before starting it");
            }
            String type = "tcg".equals(cmd.accel()) ? "qemu" : "kvm".equals(cmd.accel()) ? "kvm" : libvirt.domainType();
            String xml = builder.build(new DomainSpec(name, cmd.vmName(), type, cmd.memorySize(),
                    cmd.cpuNum(), cursors.stream().map(c -> DiskSpecs.toSpec(c.disk(), c.currentIo())).toList(), cmd.boot()));
            while (true) {
                String error = tryDefineAndStart(name, xml, cursors);
                if (error == null) {
                    return answer(name, cursors);
                }
                List<DiskIoCursor> down = IoFallbackPlanner.toStepDown(cursors, error);
                if (down.isEmpty()) {
                    IoFallbackPlanner.implicated(cursors, error).forEach(c -> c.recordFinalRefusal(error));
                    throw AgentException.failed("VM " + name + " did not start: " + error, attemptsSummary(cursors));
                }
                LOG.info("VM " + name + ": stepping down io of " + down.stream().map(DiskIoCursor::target).toList()
                        + " after: " + error);
                down.forEach(c -> c.stepDown(error));
                xml = patcher.patch(xml, down.stream().map(c -> new DomainXmlPatcher.DriverChange(c.target(),
                        c.currentIo(), c.disk().cache())).toList());
            }
        } catch (LibvirtException e) {
            cleanup(name);
            throw AgentException.failed("libvirt failed while starting VM " + name + ": " + LibvirtHost.message(e),
                    attemptsSummary(cursors), e);
        } catch (RuntimeException e) {
            cleanup(name);
            throw e;
        }
    }

    /** @return null when the domain runs, else the refusal (the domain is then gone again) */
    private String tryDefineAndStart(String name, String xml, List<DiskIoCursor> cursors) throws LibvirtException {
        Optional<String> refusal = injected.check(builderSpecs(cursors));
        if (refusal.isPresent()) {
            return refusal.get();
        }
        Domain dom;
        try {
            dom = libvirt.connect().domainDefineXML(xml);
        } catch (LibvirtException e) {
            return LibvirtHost.message(e);
        }
        try {
            dom.create();
            return null;
        } catch (LibvirtException e) {
            String error = LibvirtHost.message(e);
            libvirt.destroyAndUndefine(name);
            return error;
        } finally {
            LibvirtHost.freeQuietly(dom);
        }
    }

    private List<DiskSpec> builderSpecs(List<DiskIoCursor> cursors) {
        return cursors.stream().map(c -> DiskSpecs.toSpec(c.disk(), c.currentIo())).toList();
    }

    private VmStartRsp answer(String name, List<DiskIoCursor> cursors) throws LibvirtException {
        Domain dom = libvirt.lookup(name).orElseThrow(() -> AgentException.failed(
                "domain " + name + " vanished right after it started", "look at the QEMU log of " + name));
        String live;
        try {
            live = dom.getXMLDesc(0);
        } finally {
            LibvirtHost.freeQuietly(dom);
        }
        Map<String, DiskDriver> byTarget = patcher.readDrivers(live).stream()
                .filter(d -> d.target() != null)
                .collect(Collectors.toMap(DiskDriver::target, Function.identity(), (a, b) -> a));
        List<DiskResult> disks = new ArrayList<>();
        for (DiskIoCursor c : cursors) {
            DiskDriver driver = byTarget.get(c.target());
            if (driver == null) {
                throw AgentException.failed("the running domain " + name + " has no disk " + c.target(),
                        "libvirt dropped a disk the agent defined; its XML: " + live);
            }
            disks.add(new DiskResult(c.disk().volumeUuid(), driver.io(), driver.cache(), c.attempts()));
        }
        return new VmStartRsp(name, pids.pidOf(name), disks);
    }

    private void cleanup(String name) {
        try {
            libvirt.destroyAndUndefine(name);
        } catch (LibvirtException | RuntimeException e) {
            LOG.warning("could not remove domain " + name + " after a failed start: " + e.getMessage());
        }
    }

    static String attemptsSummary(List<DiskIoCursor> cursors) {
        List<String> parts = new ArrayList<>();
        for (DiskIoCursor c : cursors) {
            for (DiskResult.Attempt a : c.attempts()) {
                parts.add(c.target() + " (" + c.disk().volumeUuid() + ") io=" + a.io() + " refused: " + a.error());
            }
        }
        return parts.isEmpty() ? "no io mode was refused; the error is not about io modes" : String.join("; ", parts);
    }

    private static void validate(VmStartCmd cmd) {
        if (cmd.vmUuid() == null || !SAFE_NAME.matcher(cmd.vmUuid()).matches()) {
            throw AgentException.badCommand("bad vmUuid '" + cmd.vmUuid() + "'",
                    "the domain is named by the VM uuid: letters, digits, '.', '-', '_', at most 64");
        }
        if (cmd.memorySize() < MIN_MEMORY) {
            throw AgentException.badCommand("memorySize " + cmd.memorySize() + " is too small",
                    "memorySize is in bytes; at least 16 MiB (16777216)");
        }
        if (cmd.cpuNum() < 1) {
            throw AgentException.badCommand("cpuNum must be >= 1, was " + cmd.cpuNum(), "set cpuNum");
        }
        if (cmd.accel() != null && !VmStartCmd.ACCELS.contains(cmd.accel())) {
            throw AgentException.badCommand("accel '" + cmd.accel() + "' is not one of " + VmStartCmd.ACCELS,
                    "send tcg (emulated CPU, domain type qemu), kvm, or leave accel out for the host's default");
        }
        if (cmd.boot() != null) {
            if (cmd.boot().kernel() == null) {
                throw AgentException.badCommand("boot has no kernel", "send boot.kernel, or no boot to boot from the first disk");
            }
            String problem = GuestBoot.cmdlineProblem(cmd.boot().cmdline());
            if (problem != null) {
                throw AgentException.badCommand("boot.cmdline " + problem, "send printable ASCII, at most "
                        + GuestBoot.MAX_CMDLINE + " characters");
            }
        }
        Set<Integer> ids = new HashSet<>();
        for (DiskTO d : cmd.disks()) {
            DiskSpecs.validate(d);
            if (!ids.add(d.deviceId())) {
                throw AgentException.badCommand("two disks have deviceId " + d.deviceId(),
                        "give each disk of a VM its own deviceId");
            }
        }
    }
}
