package org.zstack.aio.zstack;

import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.MeasureSettings;
import org.zstack.aio.plugin.bench.BenchPlan;
import org.zstack.aio.plugin.bench.ImageKind;
import org.zstack.core.db.DatabaseFacade;
import org.zstack.core.db.Q;
import org.zstack.header.host.HostStatus;
import org.zstack.header.host.HostVO;
import org.zstack.header.storage.primary.PrimaryStorageClusterRefVO;
import org.zstack.header.storage.primary.PrimaryStorageClusterRefVO_;
import org.zstack.header.storage.primary.PrimaryStorageHostRefVO;
import org.zstack.header.storage.primary.PrimaryStorageHostRefVO_;
import org.zstack.header.storage.primary.PrimaryStorageHostStatus;
import org.zstack.header.storage.primary.PrimaryStorageStatus;
import org.zstack.header.storage.primary.PrimaryStorageVO;
import org.zstack.kvm.KVMConstant;
import org.zstack.resourceconfig.ResourceConfigFacade;
import org.zstack.storage.primary.local.LocalStorageConstants;
import org.zstack.storage.primary.local.LocalStorageHostRefVO;
import org.zstack.storage.primary.local.LocalStorageHostRefVO_;
import org.zstack.storage.primary.nfs.NfsPrimaryStorageConstant;

import java.util.Properties;

/**
 * Turns a benchmark request (host, primary storage, optional image kind and limits) into a {@link BenchmarkTarget},
 * or refuses it with one sentence saying what to do ({@link Refused}): the host must be a connected KVM host; the
 * storage LocalStorage or NFS (SharedBlock is not in open-source ZStack 5.2.0, docs/zstack-module.md), connected and
 * mounted by that host; the limits within measure.properties' bounds and the budget large enough for the plan.
 * Reads ZStack's rows only; changes nothing.
 */
public class BenchmarkTargets {

    /** A request that cannot run, and why, in one sentence. */
    static final class Refused extends RuntimeException {
        Refused(String sentence) {
            super(sentence);
        }
    }

    static final String SHARED_BLOCK = "SharedBlock";

    private final DatabaseFacade dbf;
    private final ResourceConfigFacade rcf;
    private final DiskIoModes modes;
    private final HostFactsReader hosts;
    private final Properties shipped;

    public BenchmarkTargets(DatabaseFacade dbf, ResourceConfigFacade rcf, DiskIoModes modes, HostFactsReader hosts) {
        this.dbf = dbf;
        this.rcf = rcf;
        this.modes = modes;
        this.hosts = hosts;
        this.shipped = MeasureFiles.properties();
    }

    /** @throws Refused with the sentence when the request cannot run */
    BenchmarkTarget resolve(String hostUuid, String primaryStorageUuid, String imageKind, Integer budgetSeconds,
                            Integer runSecondsMax) {
        HostVO host = dbf.findByUuid(hostUuid, HostVO.class);
        if (host == null) throw new Refused("There is no host " + hostUuid + "; give the uuid of a KVM host.");
        if (!KVMConstant.KVM_HYPERVISOR_TYPE.equals(host.getHypervisorType())) {
            throw new Refused("Host " + host.getName() + " (" + hostUuid + ") is a " + host.getHypervisorType()
                    + " host; the io-mode benchmark runs qemu-img on KVM hosts only.");
        }
        if (host.getStatus() != HostStatus.Connected) {
            throw new Refused("Host " + host.getName() + " (" + hostUuid + ") is " + host.getStatus()
                    + "; reconnect it (ReconnectHost) and run the benchmark again.");
        }
        PrimaryStorageVO ps = dbf.findByUuid(primaryStorageUuid, PrimaryStorageVO.class);
        if (ps == null) throw new Refused("There is no primary storage " + primaryStorageUuid + "; give the uuid of a LocalStorage or NFS primary storage.");
        String type = ps.getType();
        String named = "Primary storage " + ps.getName() + " (" + primaryStorageUuid + ")";
        if (SHARED_BLOCK.equals(type)) {
            throw new Refused(named + " is SharedBlock: open-source ZStack 5.2.0 has no SharedBlock backend to make a scratch"
                    + " volume in, so the io-mode benchmark runs on LocalStorage and NFS only (docs/zstack-module.md).");
        }
        if (!LocalStorageConstants.LOCAL_STORAGE_TYPE.equals(type) && !NfsPrimaryStorageConstant.NFS_PRIMARY_STORAGE_TYPE.equals(type)) {
            throw new Refused(named + " is " + type + "; the io-mode benchmark runs on LocalStorage and NFS primary storage"
                    + " only, whose directory on the host can hold its scratch image.");
        }
        if (ps.getStatus() != PrimaryStorageStatus.Connected) {
            throw new Refused(named + " is " + ps.getStatus() + "; reconnect it (ReconnectPrimaryStorage) and run the benchmark again.");
        }
        requireMounted(host, ps, named);
        if (ps.getMountPath() == null || !ps.getMountPath().startsWith("/")) {
            throw new Refused(named + " has no absolute mount path on its hosts (" + ps.getMountPath() + ").");
        }
        ImageKind kind = kind(imageKind, ps);
        MeasureSettings settings = settings(budgetSeconds, runSecondsMax);
        BenchPlan plan;
        try {
            plan = BenchPlan.of(modes, hosts.facts(hostUuid), kind, settings);
        } catch (IllegalArgumentException e) {
            throw new Refused(e.getMessage().replace("raise bench.budgetSeconds", "give a larger budgetSeconds (at most 600)") + ".");
        }
        return new BenchmarkTarget(hostUuid, primaryStorageUuid, ps.getMountPath(), plan, settings);
    }

    private void requireMounted(HostVO host, PrimaryStorageVO ps, String named) {
        String on = " on host " + host.getName() + " (" + host.getUuid() + ")";
        if (LocalStorageConstants.LOCAL_STORAGE_TYPE.equals(ps.getType())) {
            boolean holds = Q.New(LocalStorageHostRefVO.class).eq(LocalStorageHostRefVO_.hostUuid, host.getUuid())
                    .eq(LocalStorageHostRefVO_.primaryStorageUuid, ps.getUuid()).isExists();
            if (!holds) throw new Refused(named + " is not a local storage of host " + host.getName() + " (" + host.getUuid()
                    + "); give a storage that host mounts.");
            return;
        }
        boolean attached = Q.New(PrimaryStorageClusterRefVO.class).eq(PrimaryStorageClusterRefVO_.clusterUuid, host.getClusterUuid())
                .eq(PrimaryStorageClusterRefVO_.primaryStorageUuid, ps.getUuid()).isExists();
        if (!attached) throw new Refused(named + " is not attached to the cluster of host " + host.getName() + " (" + host.getUuid()
                + "), so that host does not mount it; give a storage that host mounts.");
        PrimaryStorageHostStatus status = Q.New(PrimaryStorageHostRefVO.class).select(PrimaryStorageHostRefVO_.status)
                .eq(PrimaryStorageHostRefVO_.hostUuid, host.getUuid()).eq(PrimaryStorageHostRefVO_.primaryStorageUuid, ps.getUuid())
                .findValue();
        if (status != null && status != PrimaryStorageHostStatus.Connected) {
            throw new Refused(named + " is " + status + on + "; reconnect the host and run the benchmark again.");
        }
    }

    private ImageKind kind(String imageKind, PrimaryStorageVO ps) {
        try {
            if (imageKind != null) return ImageKind.parse(imageKind);
            // the storage types benchmarked here (LocalStorage, NFS) each have their qcow2.allocation
            return ImageKind.of("qcow2", rcf.getResourceConfigValue(Qcow2Allocation.of(ps.getType()), ps.getUuid(), String.class));
        } catch (IllegalArgumentException e) {
            throw new Refused("imageKind: " + e.getMessage() + "; give format-preallocation, e.g. qcow2-full, qcow2-metadata or raw-falloc.");
        }
    }

    private MeasureSettings settings(Integer budgetSeconds, Integer runSecondsMax) {
        Properties p = new Properties();
        p.putAll(shipped);
        if (budgetSeconds != null) p.setProperty("bench.budgetSeconds", budgetSeconds.toString());
        if (runSecondsMax != null) p.setProperty("bench.runSecondsMax", runSecondsMax.toString());
        try {
            return MeasureSettings.of(p, "the request and " + MeasureSettings.RESOURCE);
        } catch (IllegalArgumentException e) {
            throw new Refused(e.getMessage() + ".");
        }
    }
}
