package org.zstack.aio.zstack;

import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.HostRef;
import org.zstack.aio.plugin.HostScript;
import org.zstack.aio.plugin.IsoDates;
import org.zstack.aio.plugin.ReadBackRequest;
import org.zstack.aio.plugin.ReadBackResult;
import org.zstack.core.cloudbus.EventFacade;
import org.zstack.core.db.Q;
import org.zstack.core.thread.Task;
import org.zstack.core.thread.ThreadFacade;
import org.zstack.header.host.HostVO;
import org.zstack.header.host.HostVO_;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.utils.TaskContext;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The read-back of one host (issue 34): conf/aio/read-back.sh for the VMs an operation touched, sent through
 * {@link HostShell} off the operation's thread (a pool thread without the operation's task context, so neither its
 * deadline nor its failure reaches the operation), compared with the stored decisions by the core
 * ({@link DiskIoModes#readBack}), what it found stored in one statement, and each disagreement said once in the log
 * and raised as the canonical event {@link #DISAGREEMENT_PATH} (the core's sentence in both). Records the node could
 * not store ({@link IoModeDecisionStore#unstored}) are compared and stored whole.
 */
public class IoModeReadBack {
    private static final CLogger logger = Utils.getLogger(IoModeReadBack.class);

    /** The canonical event of a disk that does not run what its decision says (EventFacade; a CanonicalEvent webhook). */
    public static final String DISAGREEMENT_PATH = "/aio/ioMode/disagreement";

    /** Per VM the script makes three calls of at most 5 s each (read-back.sh's bound); the rest is SSH. */
    static final long BASE_TIMEOUT_MS = 30_000;
    static final long PER_VM_TIMEOUT_MS = 15_000;

    private final DiskIoModes ioModes;
    private final ZStackPortsFactory ports;
    private final IoModeDecisionStore store;
    private final HostShell shell;
    private final EventFacade events;
    private final ThreadFacade threads;
    private final HostScript script;

    public IoModeReadBack(DiskIoModes ioModes, ZStackPortsFactory ports, IoModeDecisionStore store, HostShell shell,
                          EventFacade events, ThreadFacade threads) {
        this.ioModes = ioModes;
        this.ports = ports;
        this.store = store;
        this.shell = shell;
        this.events = events;
        this.threads = threads;
        this.script = HostScript.load(HostScript.READ_BACK, IoModeReadBack.class.getClassLoader());
    }

    /** Where the VMs to read back and their volumes come from, asked on the read-back's own thread. */
    interface Vms {
        /** each VM's uuid (its libvirt domain's name) and volumes */
        Map<String, List<VolumeInventory>> read();
    }

    /** Reads back one VM's {@code volumes} on its host, later, on another thread. */
    public void vm(String hostUuid, String hostName, final String vmUuid, final List<VolumeInventory> volumes) {
        later(hostUuid, hostName, new Vms() {
            @Override
            public Map<String, List<VolumeInventory>> read() {
                return Collections.singletonMap(vmUuid, volumes);
            }
        });
    }

    /** Reads back the VMs {@code vms} answers on the host (null name: read from ZStack's), later, on another thread. */
    void later(final String hostUuid, final String hostName, final Vms vms) {
        threads.submit(new Task<Void>() {
            @Override
            public Void call() {
                // the pool thread may hold another task's context: its message deadline must not bound this call
                TaskContext.removeTaskContext();
                try {
                    send(new HostRef(hostUuid, hostName != null ? hostName
                            : Q.New(HostVO.class).select(HostVO_.name).eq(HostVO_.uuid, hostUuid).<String>findValue()), vms.read());
                } catch (RuntimeException e) {
                    logger.warn(String.format("plugin-aio could not read back the disks on host[uuid:%s]: %s", hostUuid, e), e);
                }
                return null;
            }

            @Override
            public String getName() {
                return "aio-read-back-" + hostUuid;
            }
        });
    }

    private void send(final HostRef host, Map<String, List<VolumeInventory>> vms) {
        final Map<String, List<String>> byVm = new LinkedHashMap<>();
        final Map<String, String> paths = new LinkedHashMap<>();
        final List<VolumeInventory> volumes = new ArrayList<>();
        for (Map.Entry<String, List<VolumeInventory>> vm : vms.entrySet()) {
            List<String> l = new ArrayList<>();
            for (VolumeInventory v : vm.getValue()) {
                if (l.contains(v.getUuid())) continue;
                l.add(v.getUuid());
                volumes.add(v);
                if (v.getInstallPath() != null) paths.put(v.getUuid(), v.getInstallPath());
            }
            if (!l.isEmpty()) byVm.put(vm.getKey(), l);
        }
        if (byVm.isEmpty()) return;
        String command = script.with(byVm.keySet().toArray(new String[0])).heredocSafe();
        shell.run(host.uuid(), command, BASE_TIMEOUT_MS + PER_VM_TIMEOUT_MS * byVm.size(), new HostShell.Done() {
            @Override
            public void done(HostShell.Output out) {
                try {
                    String at = IsoDates.format(System.currentTimeMillis());
                    found(host, volumes, out.ok() ? ReadBackRequest.printed(host, byVm, paths, out.stdout, at)
                            : ReadBackRequest.failed(host, byVm, out.failure, at));
                } catch (RuntimeException e) {
                    logger.warn(String.format("plugin-aio could not compare the read-back of %s: %s", host.label(), e), e);
                }
            }
        });
    }

    private void found(HostRef host, List<VolumeInventory> volumes, ReadBackRequest request) {
        ReadBackResult r = ioModes.readBack(request, store.unstored().over(
                ports.forMigration(volumes, Collections.singletonList(host.uuid()))));
        for (String s : r.unread()) logger.warn("plugin-aio: " + s);
        if (!r.records().isEmpty()) store.saveFound(r.records());
        for (ReadBackResult.Disagreement d : r.disagreements()) {
            logger.warn("plugin-aio: " + d.sentence());
            events.fire(DISAGREEMENT_PATH, IoModeDisagreement.of(d));
        }
        for (String s : r.clearedSentences()) logger.info("plugin-aio: " + s);
    }
}
