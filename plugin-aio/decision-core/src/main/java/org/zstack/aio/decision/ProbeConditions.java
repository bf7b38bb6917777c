package org.zstack.aio.decision;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A known-bad row's conditions on named host facts ({@link HostFacts#probe}): each holds only on a fact that was
 * reported, so a rule refuses on evidence only; {@code unless} lifts the row on evidence too (a fact reported with
 * one of the named values), never on a fact's absence.
 */
public final class ProbeConditions {

    public static final ProbeConditions NONE = new ProbeConditions(null, null, null, null);

    private final Map<String, Set<String>> in;
    private final Map<String, Long> below;
    private final Map<String, String> matching;
    private final Map<String, Set<String>> unless;
    /** The regexes of {@code matching}, compiled once: the decision only runs them. */
    private final Map<String, Pattern> patterns;

    /**
     * @param in       each named fact has one of the given values
     * @param below    each named fact is a number below the given one
     * @param matching each named fact contains a match of the given regular expression
     * @param unless   the row does not apply when any named fact has one of the given values
     * @throws java.util.regex.PatternSyntaxException on a malformed regular expression
     */
    public ProbeConditions(Map<String, Set<String>> in, Map<String, Long> below, Map<String, String> matching,
                           Map<String, Set<String>> unless) {
        this.in = copyOfSets(in);
        this.below = copy(below);
        this.matching = copy(matching);
        this.unless = copyOfSets(unless);
        Map<String, Pattern> p = new LinkedHashMap<String, Pattern>();
        for (Map.Entry<String, String> e : this.matching.entrySet()) p.put(e.getKey(), Pattern.compile(e.getValue()));
        this.patterns = p;
    }

    private static <V> Map<String, V> copy(Map<String, V> m) {
        return m == null ? Collections.<String, V>emptyMap() : Collections.unmodifiableMap(new LinkedHashMap<String, V>(m));
    }

    private static Map<String, Set<String>> copyOfSets(Map<String, Set<String>> m) {
        Map<String, Set<String>> out = new LinkedHashMap<String, Set<String>>();
        if (m != null) for (Map.Entry<String, Set<String>> e : m.entrySet()) {
            out.put(e.getKey(), Collections.unmodifiableSet(new HashSet<String>(e.getValue())));
        }
        return Collections.unmodifiableMap(out);
    }

    public Map<String, Set<String>> in() { return in; }

    public Map<String, Long> below() { return below; }

    public Map<String, String> matching() { return matching; }

    public Map<String, Set<String>> unless() { return unless; }

    /** Whether every condition holds on {@code host} and no {@code unless} fact lifts the row (null host: none holds). */
    boolean matches(HostFacts host) {
        if (host == null) return in.isEmpty() && below.isEmpty() && matching.isEmpty();
        for (Map.Entry<String, Set<String>> e : in.entrySet()) {
            String have = host.probe(e.getKey());
            if (have == null || !e.getValue().contains(have)) return false;
        }
        for (Map.Entry<String, Long> e : below.entrySet()) {
            Long have = number(host.probe(e.getKey()));
            if (have == null || have >= e.getValue()) return false;
        }
        for (Map.Entry<String, Pattern> e : patterns.entrySet()) {
            String have = host.probe(e.getKey());
            if (have == null || !e.getValue().matcher(have).find()) return false;
        }
        for (Map.Entry<String, Set<String>> e : unless.entrySet()) {
            String have = host.probe(e.getKey());
            if (have != null && e.getValue().contains(have)) return false;
        }
        return true;
    }

    private static Long number(String s) {
        if (s == null) return null;
        try {
            return Long.valueOf(s.trim());
        } catch (NumberFormatException e) {
            return null; // a garbled probe is no evidence
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ProbeConditions)) return false;
        ProbeConditions c = (ProbeConditions) o;
        return in.equals(c.in) && below.equals(c.below) && matching.equals(c.matching) && unless.equals(c.unless);
    }

    @Override
    public int hashCode() { return Objects.hash(in, below, matching, unless); }
}
