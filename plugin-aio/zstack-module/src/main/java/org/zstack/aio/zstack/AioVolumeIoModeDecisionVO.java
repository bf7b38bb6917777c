package org.zstack.aio.zstack;

import org.zstack.aio.plugin.IsoDates;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.utils.gson.JSONObjectUtil;

import javax.persistence.Column;
import javax.persistence.Entity;
import javax.persistence.Id;
import javax.persistence.Table;
import java.sql.Timestamp;
import java.util.ArrayList;

/**
 * A stored decision as ZStack's JPA sees it, so that ZStack's query framework (ZQL) can query the table the module's
 * Flyway scripts create (one row per volume). Written by {@link IoModeDecisionStore} (one SQL statement per VM start);
 * read here. ZStack's persistence unit lists its entities by name: {@link AioPersistenceUnit} adds this one.
 * {@code checks}, {@code attempts} and {@code optimizedFor} are JSON text: a query may match them as text, never
 * select them as fields.
 */
@Entity
@Table(name = "AioVolumeIoModeDecisionVO")
public class AioVolumeIoModeDecisionVO {
    @Id
    @Column
    private String volumeUuid;
    @Column
    private String vmInstanceUuid;
    @Column
    private String hostUuid;
    @Column
    private String operation;
    @Column
    private String requested;
    @Column
    private String source;
    @Column
    private String effective;
    @Column
    private boolean refused;
    @Column
    private String checks;
    @Column
    private String reason;
    @Column
    private String appliedIo;
    @Column
    private String appliedCache;
    @Column
    private String attempts;
    @Column
    private String optimizedFor;
    @Column
    private String runningIo;
    /** the column readBackAt; named apart so that a query reaches the inventory's ISO-8601 readBackAt as text, never this */
    @Column(name = "readBackAt")
    private Timestamp readBackDate;
    @Column
    private String disagreement;
    @Column
    private Timestamp createDate;
    @Column
    private Timestamp lastOpDate;

    /** The core's record of this row (the view both platforms' APIs return). */
    public DecisionRecord toRecord() {
        return new DecisionRecord(volumeUuid, vmInstanceUuid, hostUuid, operation, requested, source, effective, refused,
                JSONObjectUtil.toCollection(checks, ArrayList.class, DecisionRecord.CheckRecord.class), reason, appliedIo,
                appliedCache,
                attempts == null ? null : JSONObjectUtil.toCollection(attempts, ArrayList.class, DecisionRecord.AttemptRecord.class),
                optimizedFor == null ? null : JSONObjectUtil.toObject(optimizedFor, DecisionRecord.WorkloadRecord.class),
                runningIo, readBackDate == null ? null : IsoDates.format(readBackDate.getTime()), disagreement,
                createDate == null ? null : IsoDates.format(createDate.getTime()));
    }

    // JPA reads and writes the fields; only the dates are read from outside (the inventory)
    public Timestamp getCreateDate() {
        return createDate;
    }

    public Timestamp getLastOpDate() {
        return lastOpDate;
    }
}
