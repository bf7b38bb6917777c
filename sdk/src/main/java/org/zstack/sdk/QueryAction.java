package org.zstack.sdk;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A list call with ZStack's query parameters, as ZStack's SDK has them:
 *
 * <pre>{@code
 * QueryVolumeAction q = new QueryVolumeAction();
 * q.conditions = List.of("primaryStorageUuid=" + ps, "size>=1073741824");
 * q.sortBy = "createDate"; q.sortDirection = "desc"; q.limit = 20; q.start = 40; q.replyWithCount = true;
 * QueryVolumeResult r = q.call(client);   // r.inventories, r.total
 * }</pre>
 *
 * Conditions: {@code field=value}, {@code !=}, {@code >}, {@code <}, {@code >=}, {@code <=}, {@code ?=a,b} (in),
 * {@code !?=a,b} (not in), {@code ~=pat%} (like), {@code field=null}, {@code field!=null}. With {@code count} the
 * answer carries only {@code total}.
 */
public abstract class QueryAction<R> extends AbstractAction<R> {

    /** Each sent as one {@code q=} parameter; all must hold. */
    public List<String> conditions = new ArrayList<>();
    public Integer limit;
    public Integer start;
    public Boolean count;
    public Boolean replyWithCount;
    public String sortBy;
    /** asc (default) or desc */
    public String sortDirection;
    /** only these fields of each inventory */
    public List<String> fields;

    @Override
    protected Map<String, List<String>> extraQuery() {
        Map<String, List<String>> q = new LinkedHashMap<>();
        if (conditions != null && !conditions.isEmpty()) q.put("q", List.copyOf(conditions));
        if (limit != null) q.put("limit", List.of(limit.toString()));
        if (start != null) q.put("start", List.of(start.toString()));
        if (count != null) q.put("count", List.of(count.toString()));
        if (replyWithCount != null) q.put("replyWithCount", List.of(replyWithCount.toString()));
        if (sortBy != null) {
            if (sortDirection != null && !sortDirection.equals("asc") && !sortDirection.equals("desc")) {
                throw new IllegalArgumentException(getClass().getSimpleName() + ": sortDirection must be asc or desc");
            }
            q.put("sort", List.of(("desc".equals(sortDirection) ? "-" : "+") + sortBy));
        }
        if (fields != null && !fields.isEmpty()) q.put("fields", List.of(String.join(",", fields)));
        return q;
    }
}
