package org.zstack.aio.decision;

/** The resolved policy configs for one volume: onUnsatisfied (global) and allowFalloc (primary storage -> global). */
public record DecisionPolicy(OnUnsatisfied onUnsatisfied, boolean allowFalloc) {

    public static final DecisionPolicy DEFAULT = new DecisionPolicy(OnUnsatisfied.FALLBACK, false);
}
