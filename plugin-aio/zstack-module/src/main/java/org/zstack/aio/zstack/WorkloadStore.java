package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.workload.WorkloadFold.State;
import org.zstack.aio.plugin.workload.WorkloadText;
import org.zstack.core.db.DatabaseFacade;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each volume's observed workload, one row per volume in AioVolumeWorkloadVO (V5.2.1.113): the fold's state in
 * {@code counters} (the last raw counters, the QEMU they came from and the decayed sums: what the next sample
 * continues from) and the profile it describes in {@code profile}, both as the core's {@link WorkloadText} writes them.
 * A sample of one host costs one read ({@link #running}) and one write ({@link #save}) whatever its disk count.
 */
public final class WorkloadStore {

    static final String TABLE = "AioVolumeWorkloadVO";

    /** What a sample needs of the volumes of the VMs a host runs: where each lives on the host, and its last state. */
    static final class Running {
        /** install path -> volume uuid */
        final Map<String, String> volumeByPath = new HashMap<>();
        /** volume uuid -> its state after the last sample (absent: never sampled) */
        final Map<String, State> states = new HashMap<>();
    }

    private final DatabaseFacade dbf;

    public WorkloadStore(DatabaseFacade dbf) {
        this.dbf = dbf;
    }

    /** The volumes of these VMs, with their last states (one statement). */
    Running running(Collection<String> vmUuids) {
        final Running out = new Running();
        if (vmUuids.isEmpty()) return out;
        new JdbcTemplate(dbf.getDataSource()).query("SELECT v.uuid, v.installPath, w.counters FROM VolumeVO v LEFT JOIN "
                + TABLE + " w ON w.volumeUuid = v.uuid WHERE v.vmInstanceUuid IN (" + InList.marks(vmUuids.size()) + ")", rs -> {
            String uuid = rs.getString(1);
            out.volumeByPath.put(rs.getString(2) == null ? "" : rs.getString(2), uuid);
            State s = WorkloadText.parseState(rs.getString(3));
            if (s != null) out.states.put(uuid, s);
        }, vmUuids.toArray());
        return out;
    }

    /** Every sampled volume's new state and profile (null: no request seen yet), in one statement. */
    void save(Map<String, State> states, Map<String, WorkloadProfile> profiles, long sampledAtMillis) {
        if (states.isEmpty()) return;
        List<Object> args = new ArrayList<>();
        StringBuilder rows = new StringBuilder();
        Timestamp at = new Timestamp(sampledAtMillis);
        for (Map.Entry<String, State> e : states.entrySet()) {
            rows.append(rows.length() == 0 ? "(?, ?, ?, ?, NOW())" : ", (?, ?, ?, ?, NOW())");
            WorkloadProfile p = profiles.get(e.getKey());
            args.add(e.getKey());
            args.add(p == null ? null : WorkloadText.profile(p));
            args.add(at);
            args.add(WorkloadText.state(e.getValue()));
        }
        // the facade's data source as it is now, as IoModeDecisionStore says why
        new JdbcTemplate(dbf.getDataSource()).update("INSERT INTO " + TABLE + " (volumeUuid, profile, sampledAt, counters,"
                + " lastOpDate) VALUES " + rows + " ON DUPLICATE KEY UPDATE profile = VALUES(profile), sampledAt ="
                + " VALUES(sampledAt), counters = VALUES(counters), lastOpDate = NOW()", args.toArray());
    }

    /** A volume's profile as last sampled, or null (for the decision's inventory). */
    WorkloadProfile profile(String volumeUuid) {
        return profiles(java.util.Collections.singletonList(volumeUuid)).get(volumeUuid);
    }

    /** Some volumes' profiles as last sampled (one statement); a volume never sampled is absent. */
    Map<String, WorkloadProfile> profiles(Collection<String> volumeUuids) {
        final Map<String, WorkloadProfile> out = new HashMap<>();
        if (volumeUuids.isEmpty()) return out;
        new JdbcTemplate(dbf.getDataSource()).query("SELECT volumeUuid, profile FROM " + TABLE + " WHERE volumeUuid IN ("
                + InList.marks(volumeUuids.size()) + ")", rs -> {
            WorkloadProfile p = WorkloadText.parseProfile(rs.getString(2));
            if (p != null) out.put(rs.getString(1), p);
        }, volumeUuids.toArray());
        return out;
    }
}
