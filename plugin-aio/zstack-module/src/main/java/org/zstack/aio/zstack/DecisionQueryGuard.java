package org.zstack.aio.zstack;

import org.zstack.aio.plugin.ConfigRefusal;
import org.zstack.aio.plugin.DecisionUpsert;
import org.zstack.aio.plugin.QueryRule;
import org.zstack.header.apimediator.ApiMessageInterceptionException;
import org.zstack.header.apimediator.GlobalApiMessageInterceptor;
import org.zstack.header.message.APIMessage;
import org.zstack.header.query.APIQueryMessage;
import org.zstack.header.query.QueryCondition;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.zstack.core.Platform.argerr;

/**
 * QueryVolumeIoModeDecision's (and QueryIoModeBenchmark's) conditions, sort, group and fields checked before ZStack's query service sees them:
 * ZStack 5.2.0 answers an unknown field, a negative limit or start, or a condition value with ' or \ (which its query
 * language cannot parse) with an internal error (SYS.1000) and a stack trace in the log (found by
 * AioIoModeBadInputCase). Refused here as ZStack's argument error (SYS.1007), in the core's words ({@link QueryRule}).
 */
public class DecisionQueryGuard implements GlobalApiMessageInterceptor {

    static final String ENTITY = "VolumeIoModeDecision";

    /** JSON text columns: a condition may match them as text, a query may not select them (docs/zstack-module.md). */
    private static final Set<String> JSON_COLUMNS = new TreeSet<>(DecisionUpsert.JSON_COLUMNS);

    /** What ZStack's query can reach: the inventory's fields that are columns of the entity. */
    static final Set<String> QUERYABLE = Collections.unmodifiableSet(queryable());

    private static final Set<String> SELECTABLE;

    static {
        Set<String> s = new TreeSet<>(QUERYABLE);
        s.removeAll(JSON_COLUMNS);
        SELECTABLE = Collections.unmodifiableSet(s);
    }

    /** QueryIoModeBenchmark's: the benchmark inventory's fields that are columns (all selectable). */
    static final String BENCHMARK_ENTITY = "IoModeBenchmark";
    static final Set<String> BENCHMARK_QUERYABLE = Collections.unmodifiableSet(queryable(AioStorageBenchmarkVO.class, IoModeBenchmarkInventory.class));

    @Override
    public List<Class> getMessageClassToIntercept() {
        return Arrays.<Class>asList(APIQueryVolumeIoModeDecisionMsg.class, APIQueryIoModeBenchmarkMsg.class);
    }

    @Override
    public APIMessage intercept(APIMessage msg) throws ApiMessageInterceptionException {
        if (msg instanceof APIQueryIoModeBenchmarkMsg) {
            check((APIQueryMessage) msg, BENCHMARK_ENTITY, BENCHMARK_QUERYABLE, BENCHMARK_QUERYABLE);
        } else {
            check((APIQueryMessage) msg, ENTITY, QUERYABLE, SELECTABLE);
        }
        return msg;
    }

    private static void check(APIQueryMessage q, String entity, Set<String> queryable, Set<String> selectable) {
        if (q.getConditions() != null) {
            for (QueryCondition c : q.getConditions()) {
                field(c.getName(), "condition", entity, queryable);
                String v = c.getValue();
                if (v != null && (v.contains("'") || v.contains("\\"))) refuse(QueryRule.unmatchableValue(c.getName(), v));
            }
        }
        if (q.getSortBy() != null) field(q.getSortBy(), "sortBy", entity, queryable);
        if (q.getGroupBy() != null) field(q.getGroupBy(), "groupBy", entity, queryable);
        if (q.getFields() != null) {
            for (String f : q.getFields()) field(f, "fields", entity, selectable);
        }
        if (q.getLimit() != null && q.getLimit() < 0) refuse(QueryRule.negative("limit", q.getLimit()));
        if (q.getStart() != null && q.getStart() < 0) refuse(QueryRule.negative("start", q.getStart()));
    }

    private static void field(String name, String where, String entity, Set<String> known) {
        if (name == null || !known.contains(name)) refuse(QueryRule.unknownField(String.valueOf(name), where, entity, known));
    }

    /** "%s": the sentence quotes what was sent, which may hold a format directive of its own. */
    private static void refuse(ConfigRefusal r) {
        throw new ApiMessageInterceptionException(argerr("%s", r.sentence()));
    }

    private static Set<String> queryable() {
        return queryable(AioVolumeIoModeDecisionVO.class, VolumeIoModeDecisionInventory.class);
    }

    private static Set<String> queryable(Class<?> vo, Class<?> inventory) {
        Set<String> columns = fieldNames(vo);
        columns.retainAll(fieldNames(inventory));
        return columns;
    }

    private static Set<String> fieldNames(Class<?> c) {
        Set<String> out = new TreeSet<>();
        for (Field f : c.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) out.add(f.getName());
        }
        return out;
    }
}
