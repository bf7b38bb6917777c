package org.zstack.aio.plugin.cache;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * What changed in the facts a VM start reads from memory ({@link IoFactsCache}), as every management node hears it:
 * a host's facts (a probe), a host's benchmarks (a benchmark stored or deleted), some volumes' workload profiles (a
 * sample), some resources' config rows (set or deleted), or everything (a config that changes how they are read, a
 * node that may have missed changes). It travels as one line of text ({@link #encode()}), so a platform's event (ZStack: a canonical event) can carry it as it is.
 */
public final class IoFactsChange {

    /** What the keys are. */
    public enum Kind {
        /** host uuids: their probed facts changed */
        HOST_FACTS,
        /** host uuids: a benchmark of one of their storages was stored or deleted */
        BENCHMARK,
        /** volume uuids: their profiles changed (a sample, a volume deleted) */
        WORKLOAD,
        /** volume or storage uuids: a config set on them changed (set, reset or deleted) */
        CONFIGS,
        /** no keys: drop everything */
        ALL
    }

    private final Kind kind;
    private final List<String> keys;

    private IoFactsChange(Kind kind, Collection<String> keys) {
        for (String k : keys) {
            if (k == null || k.isEmpty() || k.indexOf(' ') >= 0 || k.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("a key is a uuid, without spaces: '" + k + "'");
            }
        }
        if (kind != Kind.ALL && keys.isEmpty()) throw new IllegalArgumentException(kind + " names at least one key");
        this.kind = kind;
        this.keys = Collections.unmodifiableList(new ArrayList<String>(new LinkedHashSet<String>(keys)));
    }

    public static IoFactsChange hostFacts(String hostUuid) { return new IoFactsChange(Kind.HOST_FACTS, Collections.singletonList(hostUuid)); }

    public static IoFactsChange benchmark(String hostUuid) { return new IoFactsChange(Kind.BENCHMARK, Collections.singletonList(hostUuid)); }

    public static IoFactsChange workload(Collection<String> volumeUuids) { return new IoFactsChange(Kind.WORKLOAD, volumeUuids); }

    public static IoFactsChange configs(Collection<String> resourceUuids) { return new IoFactsChange(Kind.CONFIGS, resourceUuids); }

    public static IoFactsChange all() { return new IoFactsChange(Kind.ALL, Collections.<String>emptyList()); }

    public Kind kind() { return kind; }

    public List<String> keys() { return keys; }

    /** {@code BENCHMARK host-uuid}, {@code WORKLOAD v1 v2 v3}, {@code ALL}. */
    public String encode() {
        StringBuilder b = new StringBuilder(kind.name());
        for (String k : keys) b.append(' ').append(k);
        return b.toString();
    }

    /**
     * @throws IllegalArgumentException for a line that is no change (a node of another version may send one): the
     *                                  listener then drops everything rather than guess
     */
    public static IoFactsChange decode(String line) {
        if (line == null || line.trim().isEmpty()) throw new IllegalArgumentException("an empty change");
        List<String> words = new ArrayList<String>(Arrays.asList(line.trim().split(" +")));
        Kind kind;
        try {
            kind = Kind.valueOf(words.remove(0));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a change of the io facts: '" + line + "'");
        }
        if (kind == Kind.ALL && !words.isEmpty()) throw new IllegalArgumentException("ALL takes no keys: '" + line + "'");
        return new IoFactsChange(kind, words);
    }

    @Override
    public boolean equals(Object o) { return o instanceof IoFactsChange && ((IoFactsChange) o).encode().equals(encode()); }

    @Override
    public int hashCode() { return encode().hashCode(); }

    @Override
    public String toString() { return encode(); }
}
