package org.zstack.aio.decision;

import java.util.Objects;

/** The resolved policy configs for one volume: onUnsatisfied (global) and allowFalloc (primary storage -> global). */
public final class DecisionPolicy {

    public static final DecisionPolicy DEFAULT = new DecisionPolicy(OnUnsatisfied.FALLBACK, false);

    private final OnUnsatisfied onUnsatisfied;
    private final boolean allowFalloc;

    public DecisionPolicy(OnUnsatisfied onUnsatisfied, boolean allowFalloc) {
        this.onUnsatisfied = onUnsatisfied;
        this.allowFalloc = allowFalloc;
    }

    public OnUnsatisfied onUnsatisfied() { return onUnsatisfied; }

    public boolean allowFalloc() { return allowFalloc; }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DecisionPolicy)) return false;
        DecisionPolicy p = (DecisionPolicy) o;
        return onUnsatisfied == p.onUnsatisfied && allowFalloc == p.allowFalloc;
    }

    @Override
    public int hashCode() { return Objects.hash(onUnsatisfied, allowFalloc); }

    @Override
    public String toString() { return "DecisionPolicy[onUnsatisfied=" + onUnsatisfied + ", allowFalloc=" + allowFalloc + "]"; }
}
