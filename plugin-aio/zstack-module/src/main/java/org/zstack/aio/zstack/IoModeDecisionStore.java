package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.DecisionUpsert;
import org.zstack.core.db.DatabaseFacade;
import org.zstack.core.db.Q;
import org.zstack.utils.gson.JSONObjectUtil;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The applied decisions, one row per volume in AioVolumeIoModeDecisionVO (the module's Flyway scripts), with the
 * columns the core names ({@link DecisionRecord#STORED_COLUMNS}). Written in one statement per operation, the core's
 * {@link DecisionUpsert} on ZStack's data source (a record whose content is unchanged keeps its createDate), read
 * through the entity {@link AioVolumeIoModeDecisionVO}.
 */
public final class IoModeDecisionStore {

    static final String TABLE = "AioVolumeIoModeDecisionVO";

    private final DatabaseFacade dbf;

    public IoModeDecisionStore(DatabaseFacade dbf) {
        this.dbf = dbf;
    }

    public void save(List<DecisionRecord> decisions) {
        if (decisions.isEmpty()) return;
        DecisionUpsert u = DecisionUpsert.of(TABLE, decisions, JSONObjectUtil::toJsonString);
        // the facade's data source as it is now, not one kept from boot: every statement goes where ZStack's own go
        // (AioIoModeCostCase counts them through a counting data source set on the facade)
        new JdbcTemplate(dbf.getDataSource()).update(u.sql(), u.args().toArray());
    }

    /** The stored decision of a volume, or null when none was applied yet. */
    public DecisionRecord find(String volumeUuid) {
        AioVolumeIoModeDecisionVO vo = Q.New(AioVolumeIoModeDecisionVO.class)
                .eq(AioVolumeIoModeDecisionVO_.volumeUuid, volumeUuid).find();
        return vo == null ? null : vo.toRecord();
    }

    /** volume uuid -> its stored decision, for the volumes that have one (one query). */
    public Map<String, DecisionRecord> findAll(Collection<String> volumeUuids) {
        Map<String, DecisionRecord> out = new HashMap<>();
        if (volumeUuids.isEmpty()) return out;
        List<AioVolumeIoModeDecisionVO> rows = Q.New(AioVolumeIoModeDecisionVO.class)
                .in(AioVolumeIoModeDecisionVO_.volumeUuid, new ArrayList<>(volumeUuids)).list();
        for (AioVolumeIoModeDecisionVO vo : rows) {
            DecisionRecord r = vo.toRecord();
            out.put(r.getVolumeUuid(), r);
        }
        return out;
    }
}
