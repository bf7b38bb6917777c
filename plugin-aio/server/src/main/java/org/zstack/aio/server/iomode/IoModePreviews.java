package org.zstack.aio.server.iomode;

import org.springframework.stereotype.Component;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.account.Ownership;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Uuids;
import org.zstack.aio.server.inventory.VolumeVO;
import org.zstack.aio.server.query.Condition;
import org.zstack.aio.server.query.QueryReply;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.query.QuerySpec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * GET /v1/io-mode/previews through the one query layer: a preview is one per volume, so the query selects volumes
 * (conditions on the volume's fields, paging, order, count) and each selected volume is answered with the decision its
 * next start would make.
 */
@Component
public class IoModePreviews {

    private static final QuerySpec<VolumeVO> QUERY = QuerySpec.of(VolumeVO.class, IoModeDecisionInventory.class,
            "createDate", "uuid");

    private final IoModeOverview overview;
    private final QueryReply reply;

    public IoModePreviews(IoModeOverview overview, QueryReply reply) {
        this.overview = overview;
        this.reply = reply;
    }

    /** {@code volumeUuids} (may be null): only those volumes, as the condition {@code uuid?=...} would. */
    public Map<String, Object> answer(Caller caller, QueryRequest query, List<String> volumeUuids) {
        boolean named = volumeUuids != null && !volumeUuids.isEmpty();
        if (named && volumeUuids.size() > IoModeOverview.MAX_NAMED) {
            throw ApiException.badRequest(volumeUuids.size() + " volumeUuid parameters are more than " + IoModeOverview.MAX_NAMED + ".",
                    "Ask for one page of volumes at a time, or leave volumeUuid out for every volume.");
        }
        if (named) volumeUuids.forEach(u -> Uuids.require(u, "volume"));
        if (query.whole()) { // every preview (or the named ones) at once, from the bulk path that needs no volume rows
            var all = named ? overview.previews(caller, Set.copyOf(volumeUuids)) : overview.previews(caller);
            return Map.of("inventories", all);
        }
        QueryRequest q = named ? query.and(new Condition("uuid", Condition.Op.IN, List.copyOf(volumeUuids))) : query;
        return reply.answer(QUERY, q, Ownership.scope(caller), volumes -> inPageOrder(caller, volumes));
    }

    private List<IoModeDecisionInventory> inPageOrder(Caller caller, List<VolumeVO> volumes) {
        Map<String, IoModeDecisionInventory> byVolume = overview.previews(caller,
                        volumes.stream().map(VolumeVO::getUuid).collect(Collectors.toSet())).stream()
                .collect(Collectors.toMap(IoModeDecisionInventory::volumeUuid, Function.identity(), (a, b) -> a, LinkedHashMap::new));
        return volumes.stream().map(v -> byVolume.get(v.getUuid())).filter(java.util.Objects::nonNull).toList();
    }
}
