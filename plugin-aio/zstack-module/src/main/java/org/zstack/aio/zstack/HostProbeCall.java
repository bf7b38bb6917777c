package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.aio.decision.StorageKind;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.HostScript;
import org.zstack.core.db.DatabaseFacade;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The host probe (conf/aio/host-probe.sh, with conf/aio/host-lib.sh inlined) as one host gets it: the command
 * plugin-core's {@link HostScript} makes, which survives KvmRunShellMsg's here-document, with one argument
 * {@code <psUuid>=<path>} per file primary storage attached to the host's cluster (ZStack's {@code mountPath}, else its
 * {@code url}), so the per-path facts (filesystem, loop backing, O_DIRECT) land under each storage
 * ({@code storage.<psUuid>.*}, read by the core's HostIoProbe into StorageIoFacts). Block and network storages have
 * no path the probe could test.
 */
public final class HostProbeCall {

    private final DatabaseFacade dbf;
    private final DiskIoModes ioModes;
    private final HostScript probe;

    public HostProbeCall(DatabaseFacade dbf, DiskIoModes ioModes) {
        this.dbf = dbf;
        this.ioModes = ioModes;
        this.probe = HostScript.load(HostScript.PROBE, HostProbeCall.class.getClassLoader());
    }

    /** The one line KvmRunShellMsg sends to probe {@code hostUuid}. */
    String command(String hostUuid) {
        List<String> args = HostScript.probeArgs(storagePaths(hostUuid));
        return probe.with(args.toArray(new String[0])).heredocSafe();
    }

    /** Each file primary storage of the host's cluster and the path its images live under, in uuid order. */
    Map<String, String> storagePaths(String hostUuid) {
        Map<String, String> out = new LinkedHashMap<>();
        // the facade's data source as it is now, as IoModeDecisionStore says why
        new JdbcTemplate(dbf.getDataSource()).query("SELECT ps.uuid, ps.type, ps.mountPath, ps.url FROM PrimaryStorageVO ps"
                + " JOIN PrimaryStorageClusterRefVO ref ON ref.primaryStorageUuid = ps.uuid"
                + " JOIN HostVO h ON h.clusterUuid = ref.clusterUuid WHERE h.uuid = ? ORDER BY ps.uuid", rs -> {
                    if (ioModes.kindOf(rs.getString(2)) != StorageKind.FILE) return;
                    String path = rs.getString(3) != null && !rs.getString(3).isEmpty() ? rs.getString(3) : rs.getString(4);
                    if (path != null && path.startsWith("/") && path.indexOf('\n') < 0) out.put(rs.getString(1), path);
                }, hostUuid);
        return out;
    }
}
