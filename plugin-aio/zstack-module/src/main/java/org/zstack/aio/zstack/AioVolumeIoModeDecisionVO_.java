package org.zstack.aio.zstack;

import javax.persistence.metamodel.SingularAttribute;
import javax.persistence.metamodel.StaticMetamodel;
import java.sql.Timestamp;

/** JPA's static metamodel of {@link AioVolumeIoModeDecisionVO}, filled by Hibernate at boot (ZStack's Q/SQL helpers use it). */
@StaticMetamodel(AioVolumeIoModeDecisionVO.class)
public class AioVolumeIoModeDecisionVO_ {
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> volumeUuid;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> vmInstanceUuid;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> hostUuid;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> operation;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> requested;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> source;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> effective;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, Boolean> refused;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> checks;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> reason;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> appliedIo;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> appliedCache;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> attempts;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> optimizedFor;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> runningIo;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, Timestamp> readBackDate;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, String> disagreement;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, Timestamp> createDate;
    public static volatile SingularAttribute<AioVolumeIoModeDecisionVO, Timestamp> lastOpDate;
}
