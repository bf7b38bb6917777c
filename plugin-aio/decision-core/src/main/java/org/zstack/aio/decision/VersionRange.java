package org.zstack.aio.decision;

import java.util.Objects;

/** [min, below): either bound may be null (open). */
public final class VersionRange {

    private final Version min;
    private final Version below;

    public VersionRange(Version min, Version below) {
        this.min = min;
        this.below = below;
    }

    public Version min() { return min; }

    public Version below() { return below; }

    public boolean contains(Version v) {
        if (v == null) return false;
        return (min == null || v.atLeast(min)) && (below == null || v.compareTo(below) < 0);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof VersionRange)) return false;
        VersionRange r = (VersionRange) o;
        return Objects.equals(min, r.min) && Objects.equals(below, r.below);
    }

    @Override
    public int hashCode() { return Objects.hash(min, below); }

    @Override
    public String toString() { return "[" + min + ", " + below + ")"; }
}
