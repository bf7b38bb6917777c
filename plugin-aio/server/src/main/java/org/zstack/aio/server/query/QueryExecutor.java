package org.zstack.aio.server.query;

import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Order;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.metamodel.Attribute;
import jakarta.persistence.metamodel.EntityType;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Uuids;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Runs a {@link QueryRequest} against a {@link QuerySpec} with JPA Criteria: conditions become typed predicates
 * (values bound as parameters, never spliced into a query string), then the count and the page are two SQL
 * statements. Every field name is checked against the entity's metamodel first: an unknown one is a 400 naming it.
 */
@Component
public class QueryExecutor {

    /** Extra restriction a caller's rights add (e.g. a tenant sees its own volumes only). */
    @FunctionalInterface
    public interface Scope<E> {
        Predicate restrict(CriteriaBuilder cb, CriteriaQuery<?> query, Root<E> root);

        /** Names the rows this scope lets through, for keeping their count (null: the count is not kept). */
        default String countKey() {
            return null;
        }

        static <E> Scope<E> all() {
            return new Scope<>() {
                @Override
                public Predicate restrict(CriteriaBuilder cb, CriteriaQuery<?> query, Root<E> root) {
                    return null;
                }

                @Override
                public String countKey() {
                    return "all";
                }
            };
        }

        /** The rows of one account (a field that never changes once written). */
        static <E> Scope<E> account(String accountUuid) {
            return new Scope<>() {
                @Override
                public Predicate restrict(CriteriaBuilder cb, CriteriaQuery<?> query, Root<E> root) {
                    return cb.equal(root.get("accountUuid"), accountUuid);
                }

                @Override
                public String countKey() {
                    return "account:" + accountUuid;
                }
            };
        }
    }

    private final EntityManager em;
    private final QueryCounts counts;

    public QueryExecutor(EntityManager em, QueryCounts counts) {
        this.em = em;
        this.counts = counts;
    }

    @Transactional(readOnly = true)
    public <E> Page<E> run(QuerySpec<E> spec, QueryRequest req, Scope<E> scope) {
        Map<String, Class<?>> fields = queryable(spec);
        Projection.check(spec, req.fields());
        for (Condition c : req.conditions()) requireField(spec, fields, c.field(), "condition");
        if (req.sort() != null) requireField(spec, fields, req.sort().field(), "sort");
        CriteriaBuilder cb = em.getCriteriaBuilder();

        // a filter's rows may change without an insert: only unfiltered counts and positions are kept (QueryCounts)
        String keptKey = req.conditions().isEmpty() ? scope.countKey() : null;
        boolean deferred = req.start() > 0 && req.limit() != null && simpleId(spec.entity()) != null;
        Object stamp = keptKey != null && (req.count() || req.replyWithCount() || deferred) ? counts.stamp(spec) : null;
        Long total = null;
        if (req.count() || req.replyWithCount()) {
            CriteriaQuery<Long> cq = cb.createQuery(Long.class);
            Root<E> root = cq.from(spec.entity());
            cq.select(cb.count(root)).where(where(cb, cq, root, spec, fields, req, scope));
            total = counts.total(spec, keptKey, stamp, () -> em.createQuery(cq).getSingleResult());
        }
        if (req.count()) return new Page<>(List.of(), total);

        List<QueryRequest.Sort> sorts = new ArrayList<>();
        if (req.sort() != null) sorts.add(req.sort());
        sorts.addAll(spec.defaultOrder());
        if (deferred) {
            QueryCounts.Position from = req.sort() == null && "all".equals(keptKey)
                    ? counts.position(spec, keptKey, stamp, req.start(), () -> positions(spec)) : null;
            return new Page<>(deferred(spec, req, scope, fields, sorts, simpleId(spec.entity()), from), total);
        }
        CriteriaQuery<E> cq = cb.createQuery(spec.entity());
        Root<E> root = cq.from(spec.entity());
        cq.select(root).where(where(cb, cq, root, spec, fields, req, scope)).orderBy(order(cb, root, sorts));
        TypedQuery<E> q = em.createQuery(cq).setFirstResult(req.start());
        if (req.limit() != null) q.setMaxResults(req.limit());
        return new Page<>(q.getResultList(), total);
    }

    /**
     * A page past the first by a deferred join: the ids of the page first (the offset walks the ordering index only,
     * never the rows it skips), then those rows by id. At 100k volumes a page at offset 99,950 read every skipped
     * row in full before (docs/performance.md).
     */
    private <E> List<E> deferred(QuerySpec<E> spec, QueryRequest req, Scope<E> scope, Map<String, Class<?>> fields,
                                 List<QueryRequest.Sort> sorts, String id, QueryCounts.Position from) {
        CriteriaBuilder cb = em.getCriteriaBuilder();
        CriteriaQuery<Object> ids = cb.createQuery(Object.class);
        Root<E> r = ids.from(spec.entity());
        List<Predicate> where = new ArrayList<>(List.of(where(cb, ids, r, spec, fields, req, scope)));
        int offset = req.start();
        if (from != null) { // start at a kept position: the offset walks at most QueryCounts.POSITION_STEP entries
            where.add(atOrAfter(cb, r, spec.defaultOrder(), from.key()));
            offset -= from.index();
        }
        ids.select(r.get(id)).where(where.toArray(Predicate[]::new)).orderBy(order(cb, r, sorts));
        List<Object> page = em.createQuery(ids).setFirstResult(offset).setMaxResults(req.limit()).getResultList();
        if (page.isEmpty()) return List.of();
        CriteriaQuery<E> rows = cb.createQuery(spec.entity());
        Root<E> e = rows.from(spec.entity());
        rows.select(e).where(e.get(id).in(page));
        Map<Object, E> byId = new java.util.HashMap<>();
        for (E row : em.createQuery(rows).getResultList()) {
            byId.put(em.getEntityManagerFactory().getPersistenceUnitUtil().getIdentifier(row), row);
        }
        List<E> out = new ArrayList<>(page.size());
        for (Object key : page) {
            E row = byId.get(key);
            if (row != null) out.add(row); // deleted between the two reads: the page is one shorter
        }
        return out;
    }

    /** (a, b) >= (key[0], key[1]) in an ascending order on two attributes, the second unique. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <E> Predicate atOrAfter(CriteriaBuilder cb, Root<E> r, List<QueryRequest.Sort> order, Object[] key) {
        Expression<Comparable> a = r.get(order.get(0).field());
        Expression<Comparable> b = r.get(order.get(1).field());
        return cb.and(cb.greaterThanOrEqualTo(a, (Comparable) key[0]), // the leading range lets the index start there
                cb.or(cb.greaterThan(a, (Comparable) key[0]), cb.greaterThanOrEqualTo(b, (Comparable) key[1])));
    }

    /**
     * The sort keys of rows 0, STEP, 2 STEP, ... of the whole table in its default order (two ascending attributes,
     * named as their columns), in one statement: one walk of the ordering index, answering a hundred rows at 100k.
     */
    @SuppressWarnings("unchecked")
    private <E> List<Object[]> positions(QuerySpec<E> spec) {
        List<QueryRequest.Sort> order = spec.defaultOrder();
        if (order.size() != 2 || !order.get(0).ascending() || !order.get(1).ascending()) return List.of();
        String a = order.get(0).field();
        String b = order.get(1).field();
        String table = spec.entity().getAnnotation(jakarta.persistence.Table.class).name();
        List<Object[]> rows = em.createNativeQuery("SELECT t." + a + ", t." + b + " FROM (SELECT " + a + ", " + b
                                                   + ", ROW_NUMBER() OVER (ORDER BY " + a + ", " + b + ") AS rn FROM " + table
                                                   + ") t WHERE MOD(t.rn - 1, " + QueryCounts.POSITION_STEP
                                                   + ") = 0 ORDER BY t.rn").getResultList();
        for (Object[] row : rows) { // a native DATETIME may come back as a Timestamp; the attribute is a LocalDateTime
            for (int i = 0; i < row.length; i++) if (row[i] instanceof java.sql.Timestamp t) row[i] = t.toLocalDateTime();
        }
        return rows;
    }

    private static <E> List<Order> order(CriteriaBuilder cb, Root<E> root, List<QueryRequest.Sort> sorts) {
        List<Order> order = new ArrayList<>();
        for (QueryRequest.Sort s : sorts) {
            order.add(s.ascending() ? cb.asc(root.get(s.field())) : cb.desc(root.get(s.field())));
        }
        return order;
    }

    /** The entity's id attribute when it is one plain attribute (not a composite key), else null. */
    private <E> String simpleId(Class<E> entity) {
        EntityType<E> type = em.getMetamodel().entity(entity);
        if (!type.hasSingleIdAttribute()) return null;
        var idAttr = type.getId(type.getIdType().getJavaType());
        return idAttr.getPersistentAttributeType() == Attribute.PersistentAttributeType.BASIC ? idAttr.getName() : null;
    }

    /** Attribute name → Java type of every field a condition or sort may name. */
    public <E> Map<String, Class<?>> queryable(QuerySpec<E> spec) {
        EntityType<E> type = em.getMetamodel().entity(spec.entity());
        Map<String, Class<?>> out = new TreeMap<>();
        for (Attribute<? super E, ?> a : type.getAttributes()) {
            if (!a.isCollection() && !a.isAssociation() && !spec.hidden().contains(a.getName())) {
                out.put(a.getName(), a.getJavaType());
            }
        }
        return out;
    }

    private <E> void requireField(QuerySpec<E> spec, Map<String, Class<?>> fields, String field, String where) {
        if (!fields.containsKey(field)) {
            throw ApiException.badRequest("'" + Uuids.abbreviate(field) + "' in the " + where + " is not a queryable field of "
                                          + spec.entity().getSimpleName() + ".",
                    "Queryable fields: " + String.join(", ", fields.keySet()) + ".");
        }
    }

    private <E> Predicate[] where(CriteriaBuilder cb, CriteriaQuery<?> cq, Root<E> root, QuerySpec<E> spec,
                                  Map<String, Class<?>> fields, QueryRequest req, Scope<E> scope) {
        List<Predicate> ps = new ArrayList<>();
        Predicate restriction = scope.restrict(cb, cq, root);
        if (restriction != null) ps.add(restriction);
        for (Condition c : req.conditions()) ps.add(predicate(cb, root.get(c.field()), fields.get(c.field()), c));
        return ps.toArray(Predicate[]::new);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Predicate predicate(CriteriaBuilder cb, Path<?> path, Class<?> type, Condition c) {
        Expression<Comparable> comparable = (Expression<Comparable>) path;
        return switch (c.op()) {
            case IS_NULL -> cb.isNull(path);
            case NOT_NULL -> cb.isNotNull(path);
            case EQ -> cb.equal(path, value(type, c, c.values().get(0)));
            case NOT_EQ -> cb.or(cb.notEqual(path, value(type, c, c.values().get(0))), cb.isNull(path));
            case GT -> cb.greaterThan(comparable, (Comparable) value(type, c, c.values().get(0)));
            case LT -> cb.lessThan(comparable, (Comparable) value(type, c, c.values().get(0)));
            case GE -> cb.greaterThanOrEqualTo(comparable, (Comparable) value(type, c, c.values().get(0)));
            case LE -> cb.lessThanOrEqualTo(comparable, (Comparable) value(type, c, c.values().get(0)));
            case IN -> path.in(values(type, c));
            case NOT_IN -> cb.or(cb.not(path.in(values(type, c))), cb.isNull(path));
            case LIKE -> cb.like(text(path, type, c), c.values().get(0));
            case NOT_LIKE -> cb.or(cb.notLike(text(path, type, c), c.values().get(0)), cb.isNull(path));
        };
    }

    @SuppressWarnings("unchecked")
    private static Expression<String> text(Path<?> path, Class<?> type, Condition c) {
        if (type != String.class) {
            throw ApiException.badRequest("'" + c.field() + "' is not text, so " + c.op().symbol + " (like) does not apply to it.",
                    "Use =, !=, >, <, >=, <=, ?= or !?= on " + c.field() + ".");
        }
        return (Expression<String>) path;
    }

    private static List<Object> values(Class<?> type, Condition c) {
        return c.values().stream().map(v -> value(type, c, v)).collect(Collectors.toList());
    }

    /** The condition's text as the attribute's type; 400 when it is not one. */
    static Object value(Class<?> type, Condition c, String v) {
        try {
            if (type == String.class) return v;
            if (type == long.class || type == Long.class) return Long.parseLong(v);
            if (type == int.class || type == Integer.class) return Integer.parseInt(v);
            if (type == boolean.class || type == Boolean.class) {
                if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) return Boolean.parseBoolean(v);
                throw new IllegalArgumentException();
            }
            if (type == LocalDateTime.class) return dateTime(v);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw ApiException.badRequest("'" + Uuids.abbreviate(v) + "' in query condition on '" + c.field() + "' is not a "
                                          + kind(type) + ".",
                    "Send " + c.field() + " as " + kind(type) + ".");
        }
        throw new IllegalStateException("no query conversion for " + type);
    }

    /** A zoned ISO date (the form the API answers with) or a local one in the server's zone. */
    private static LocalDateTime dateTime(String v) {
        try {
            return OffsetDateTime.parse(v).atZoneSameInstant(ZoneId.systemDefault()).toLocalDateTime();
        } catch (DateTimeParseException e) {
            return LocalDateTime.parse(v);
        }
    }

    private static String kind(Class<?> type) {
        if (type == long.class || type == Long.class || type == int.class || type == Integer.class) return "a whole number";
        if (type == boolean.class || type == Boolean.class) return "true or false";
        if (type == LocalDateTime.class) return "an ISO-8601 date such as 2026-01-31T12:00:00.000Z";
        return "text";
    }
}
