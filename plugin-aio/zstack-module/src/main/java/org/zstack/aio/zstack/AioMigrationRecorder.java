package org.zstack.aio.zstack;

import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.DiskKind;
import org.zstack.aio.plugin.HostRef;
import org.zstack.aio.plugin.ZStackDeviceTypes;
import org.zstack.core.db.Q;
import org.zstack.header.errorcode.ErrorCode;
import org.zstack.header.host.HostVO;
import org.zstack.header.host.HostVO_;
import org.zstack.header.vm.VmInstanceInventory;
import org.zstack.header.vm.VmInstanceMigrateExtensionPoint;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.kvm.KVMBeforeAsyncJsonPostExtensionPoint;
import org.zstack.kvm.KVMConstant;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * After a live migration, each stored decision of the VM's disks says what the disk runs on the destination (the
 * core's {@link DiskIoModes#migrated}): ZStack's agent migrates with the source's domain XML, so a disk keeps its mode,
 * except a disk the migration command moves to new storage ({@code MigrateVmCmd.disks}), whose XML the source's agent
 * writes anew ({@link ZStackDeviceTypes#rebuiltAs}). Which disks those are is read from the command itself, as ZStack
 * sends it to the agent ({@link KVMBeforeAsyncJsonPostExtensionPoint}); open-source ZStack 5.2 sends none
 * (LocalStorage's live migration copies the disks under the source's XML), but the command allows it.
 */
public class AioMigrationRecorder implements VmInstanceMigrateExtensionPoint, KVMBeforeAsyncJsonPostExtensionPoint {
    private static final CLogger logger = Utils.getLogger(AioMigrationRecorder.class);

    private final DiskIoModes ioModes;
    private final ZStackPortsFactory ports;
    private final IoModeDecisionStore store;
    private final AioSchema schema;
    /** vm uuid -> its volumes by install path, taken before the migration (the command names a moved disk by its old path) */
    private final Map<String, Map<String, String>> volumesByPath = new ConcurrentHashMap<>();
    /** vm uuid -> the volumes its migration command rebuilds, with how the rebuilt disk is opened */
    private final Map<String, Map<String, DiskKind>> rebuilt = new ConcurrentHashMap<>();

    public AioMigrationRecorder(DiskIoModes ioModes, ZStackPortsFactory ports, IoModeDecisionStore store, AioSchema schema) {
        this.ioModes = ioModes;
        this.ports = ports;
        this.store = store;
        this.schema = schema;
    }

    @Override
    public void beforeMigrateVm(VmInstanceInventory inv, String destHostUuid) {
        Map<String, String> paths = new HashMap<>();
        for (VolumeInventory v : inv.getAllVolumes()) if (v.getInstallPath() != null) paths.put(v.getInstallPath(), v.getUuid());
        volumesByPath.put(inv.getUuid(), paths);
        rebuilt.remove(inv.getUuid());
    }

    /** Reads which disks the migration command moves; adds nothing to the command. */
    @Override
    public LinkedHashMap kvmBeforeAsyncJsonPostExtensionPoint(String path, LinkedHashMap cmd, Map header) {
        if (path == null || !path.endsWith(KVMConstant.KVM_MIGRATE_VM_PATH) || cmd == null) return null;
        Object vm = cmd.get("vmUuid");
        Object disks = cmd.get("disks");
        if (vm == null || !(disks instanceof Map) || ((Map<?, ?>) disks).isEmpty()) return null;
        Map<String, String> byPath = volumesByPath.get(vm.toString());
        Map<String, DiskKind> moved = new HashMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) disks).entrySet()) {
            if (!(e.getValue() instanceof Map)) continue;
            Map<?, ?> to = (Map<?, ?>) e.getValue();
            DiskKind kind = ZStackDeviceTypes.rebuiltAs(String.valueOf(to.get("deviceType")));
            if (kind == null) continue;
            // the new volume's uuid, and the volume that had the old path (ZStack may give the moved disk a new volume)
            if (to.get("volumeUuid") != null) moved.put(to.get("volumeUuid").toString(), kind);
            String old = byPath == null ? null : byPath.get(String.valueOf(e.getKey()));
            if (old != null) moved.put(old, kind);
        }
        rebuilt.put(vm.toString(), moved);
        return null;
    }

    @Override
    public void afterMigrateVm(VmInstanceInventory inv, String srcHostUuid) {
        volumesByPath.remove(inv.getUuid());
        Map<String, DiskKind> moved = rebuilt.remove(inv.getUuid());
        if (!schema.readyFor("the records of vm[uuid:" + inv.getUuid() + "] after its migration")) return;
        try {
            record(inv, srcHostUuid, moved == null ? Collections.<String, DiskKind>emptyMap() : moved);
        } catch (RuntimeException e) {
            // the VM has migrated: a record that could not be updated must not fail it
            logger.warn(String.format("cannot update the io-mode decisions of vm[uuid:%s] after its migration", inv.getUuid()), e);
        }
    }

    @Override
    public void failedToMigrateVm(VmInstanceInventory inv, String destHostUuid, ErrorCode reason) {
        volumesByPath.remove(inv.getUuid());
        rebuilt.remove(inv.getUuid());
    }

    private void record(VmInstanceInventory inv, String srcHostUuid, Map<String, DiskKind> moved) {
        List<String> uuids = new ArrayList<>();
        for (VolumeInventory v : inv.getAllVolumes()) uuids.add(v.getUuid());
        String dest = inv.getHostUuid();
        String name = Q.New(HostVO.class).select(HostVO_.name).eq(HostVO_.uuid, dest).findValue();
        List<DecisionRecord> out = ioModes.migrated(inv.getUuid(), srcHostUuid, new HostRef(dest, name), uuids, moved,
                ports.forMigration(inv.getAllVolumes(), Collections.singletonList(srcHostUuid)));
        store.saveOrKeep(out);
    }
}
