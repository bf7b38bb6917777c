package org.zstack.aio.server.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.stereotype.Component;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Turns a {@link Page} into the answer ZStack's query API gives: {@code {"total":N}} for {@code count=true},
 * else {@code {"inventories":[...]}} plus {@code "total"} for {@code replyWithCount=true}; inventories are built
 * for the selected rows only, and reduced to {@code fields} when asked.
 */
@Component
public class QueryReply {

    private final QueryExecutor executor;
    private final ObjectMapper json;

    public QueryReply(QueryExecutor executor, ObjectMapper json) {
        this.executor = executor;
        this.json = json;
    }

    public <E> Map<String, Object> answer(QuerySpec<E> spec, QueryRequest req, QueryExecutor.Scope<E> scope,
                                          Function<List<E>, List<?>> inventories) {
        Page<E> page = executor.run(spec, req, scope);
        Map<String, Object> out = new LinkedHashMap<>();
        if (req.count()) {
            out.put("total", page.total());
            return out;
        }
        out.put("inventories", Projection.apply(page.rows().isEmpty() ? List.of() : inventories.apply(page.rows()),
                req.fields(), json));
        if (req.replyWithCount()) out.put("total", page.total());
        return out;
    }
}
