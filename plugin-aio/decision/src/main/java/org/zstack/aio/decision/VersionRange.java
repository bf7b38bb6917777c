package org.zstack.aio.decision;

/** [min, below): either bound may be null (open). */
public record VersionRange(Version min, Version below) {

    public boolean contains(Version v) {
        if (v == null) return false;
        return (min == null || v.atLeast(min)) && (below == null || v.compareTo(below) < 0);
    }
}
