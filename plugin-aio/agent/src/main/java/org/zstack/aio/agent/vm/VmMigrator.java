package org.zstack.aio.agent.vm;

import org.libvirt.Connect;
import org.libvirt.Domain;
import org.libvirt.LibvirtException;
import org.zstack.aio.agent.api.VmMigrateCmd;
import org.zstack.aio.agent.api.VmMigrateRsp;
import org.zstack.aio.agent.domain.DomainXmlPatcher;
import org.zstack.aio.agent.domain.UnknownDiskException;
import org.zstack.aio.agent.http.AgentException;
import org.zstack.aio.agent.libvirt.LibvirtHost;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Live migration of one running domain to another host's libvirtd (virDomainMigrate2 with a destination XML).
 * The destination XML is the domain's migratable XML with each disk's {@code <driver io cache>} patched to the
 * destination's decisions, so the destination QEMU opens every disk with the mode chosen for THAT host. When
 * libvirt refuses (the destination cannot run a mode, the destination is unreachable), the domain keeps running
 * here unchanged, and the answer quotes libvirt.
 */
public final class VmMigrator {

    /** LIVE: the guest keeps running. UNSAFE: local image files look unshared to libvirt (research notes). */
    static final long FLAGS = Domain.MigrateFlags.LIVE | Domain.MigrateFlags.UNSAFE
            | Domain.MigrateFlags.PERSIST_DEST | Domain.MigrateFlags.UNDEFINE_SOURCE;
    private static final Logger LOG = Logger.getLogger(VmMigrator.class.getName());
    /** One daemon thread for every migration's time limit: it only calls virDomainAbortJob. */
    private static final ScheduledExecutorService ABORTS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "migration-time-limit");
        t.setDaemon(true);
        return t;
    });
    private static final Pattern MIGRATION_URI = Pattern.compile("tcp://[A-Za-z0-9.:\\[\\]-]+");

    private final LibvirtHost libvirt;
    private final DomainXmlPatcher patcher = new DomainXmlPatcher();

    public VmMigrator(LibvirtHost libvirt) {
        this.libvirt = libvirt;
    }

    public VmMigrateRsp migrate(VmMigrateCmd cmd) {
        validate(cmd);
        String name = cmd.vmUuid();
        long t0 = System.nanoTime();
        try {
            libvirt.requireOwnedOrAbsent(name, "migrate");
            Optional<Domain> found = libvirt.lookup(name);
            if (found.isEmpty() || found.get().isActive() != 1) {
                found.ifPresent(LibvirtHost::freeQuietly);
                throw AgentException.conflict("VM " + name + " does not run on this host",
                        "only a running VM is live-migrated; a stopped VM moves by starting it on the destination");
            }
            Domain dom = found.get();
            try {
                String destXml = destinationXml(dom.getXMLDesc(Domain.XMLFlags.MIGRATABLE), cmd.disks());
                Domain moved = migrateTo(dom, cmd, destXml);
                try {
                    List<VmMigrateCmd.DiskDriverTO> disks = patcher.readDrivers(moved.getXMLDesc(0)).stream()
                            .map(d -> new VmMigrateCmd.DiskDriverTO(d.target(), d.io(), d.cache())).toList();
                    long millis = (System.nanoTime() - t0) / 1_000_000;
                    LOG.info("VM " + name + " migrated to " + cmd.destinationLibvirt() + " in " + millis + " ms: " + disks);
                    return new VmMigrateRsp(name, disks, millis);
                } finally {
                    LibvirtHost.freeQuietly(moved);
                }
            } finally {
                LibvirtHost.freeQuietly(dom);
            }
        } catch (LibvirtException e) {
            throw AgentException.failed("libvirt could not migrate VM " + name + ": " + LibvirtHost.message(e),
                    "the VM still runs on this host with its disks unchanged", e);
        }
    }

    /** The migratable XML with the destination's drivers; a disk the domain does not have is a bad command. */
    String destinationXml(String migratableXml, List<VmMigrateCmd.DiskDriverTO> disks) {
        try {
            return patcher.patch(migratableXml, disks.stream()
                    .map(d -> new DomainXmlPatcher.DriverChange(d.disk(), d.io(), d.cache())).toList());
        } catch (UnknownDiskException e) {
            throw AgentException.badCommand(e.getMessage(), "name disks by their target dev (vda) or source path");
        }
    }

    /**
     * The migration, aborted (virDomainAbortJob, as virsh does on Ctrl-C) once it passes the server's time limit:
     * libvirt then resumes the guest here, and the server, which waits longer than that, learns it from the answer
     * instead of giving up while the domain is still moving (and then settling it on the wrong host).
     */
    private Domain migrateTo(Domain dom, VmMigrateCmd cmd, String destXml) throws LibvirtException {
        Connect destination = new Connect(cmd.destinationLibvirt());
        ScheduledFuture<?> abort = cmd.timeoutSeconds() <= 0 ? null
                : ABORTS.schedule(() -> abortQuietly(dom, cmd), cmd.timeoutSeconds(), TimeUnit.SECONDS);
        try {
            return dom.migrate(destination, FLAGS, destXml, null, cmd.migrationUri(), 0L);
        } catch (LibvirtException e) {
            if (abort != null && abort.isDone()) {
                throw AgentException.failed("VM " + cmd.vmUuid() + " did not finish migrating within "
                        + cmd.timeoutSeconds() + " s, so the migration was aborted (" + LibvirtHost.message(e) + ")",
                        "the VM still runs on this host with its disks unchanged; migrate it when it writes less "
                        + "memory, or raise aio.migration.timeout", e);
            }
            throw e;
        } finally {
            if (abort != null) abort.cancel(false);
            try {
                destination.close();
            } catch (LibvirtException ignored) {
                // the migration's outcome is already decided; a failed close only leaks a socket until exit
            }
        }
    }

    private static void abortQuietly(Domain dom, VmMigrateCmd cmd) {
        try {
            dom.abortJob();
            LOG.warning("VM " + cmd.vmUuid() + ": migration aborted after " + cmd.timeoutSeconds() + " s");
        } catch (LibvirtException e) {
            // the job ended in the meantime: the migration's own outcome stands
            LOG.info("VM " + cmd.vmUuid() + ": nothing to abort (" + LibvirtHost.message(e) + ")");
        }
    }

    private void validate(VmMigrateCmd cmd) {
        if (cmd.vmUuid() == null || !VmStarter.SAFE_NAME.matcher(cmd.vmUuid()).matches()) {
            throw AgentException.badCommand("bad vmUuid '" + cmd.vmUuid() + "'", "send the uuid of the VM to migrate");
        }
        checkDestination(cmd.destinationLibvirt(), libvirt.uri());
        if (cmd.migrationUri() == null || !MIGRATION_URI.matcher(cmd.migrationUri()).matches()) {
            throw AgentException.badCommand("bad migrationUri '" + cmd.migrationUri() + "'",
                    "send tcp://<destination address>[:port]");
        }
        for (VmMigrateCmd.DiskDriverTO d : cmd.disks()) {
            if (d.disk() == null || d.disk().isBlank()) {
                throw AgentException.badCommand("a disk without a name", "name each disk by target dev or source path");
            }
        }
    }

    /**
     * Trust (docs/security.md, "Live migration"): the source libvirtd is asked to hand a running guest's memory
     * and disks to the destination, so the destination must be authenticated by libvirt itself: qemu+tls (x509,
     * both sides verified) or qemu+unix (a local socket; the one-machine test host). qemu+tcp has no
     * authentication, ssh would need keys the agent does not hold; both are refused. The own URI is refused too.
     */
    static void checkDestination(String destination, String ownUri) {
        URI u;
        try {
            u = destination == null ? null : URI.create(destination);
        } catch (IllegalArgumentException e) {
            u = null;
        }
        if (u == null || u.getScheme() == null) {
            throw AgentException.badCommand("bad destinationLibvirt '" + destination + "'",
                    "send the destination host's libvirt URI, e.g. qemu+tls://host/system");
        }
        if (!u.getScheme().equals("qemu+tls") && !u.getScheme().equals("qemu+unix")) {
            throw AgentException.forbidden("destination libvirt transport " + u.getScheme() + " is not authenticated",
                    "use qemu+tls:// (libvirt x509 on both hosts) or qemu+unix:// for a host on this machine");
        }
        if (destination.equals(ownUri)) {
            throw AgentException.badCommand("the destination is this host's own libvirtd", "pick another host");
        }
    }
}
