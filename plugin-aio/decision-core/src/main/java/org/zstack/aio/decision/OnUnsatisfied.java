package org.zstack.aio.decision;

/** kvm/vm.ioMode.onUnsatisfied: what happens when the requested mode's checks fail. */
public enum OnUnsatisfied {
    FALLBACK("fallback"), FAIL("fail");

    private final String wire;

    OnUnsatisfied(String wire) { this.wire = wire; }

    /** The config value. */
    public String wire() { return wire; }

    public static OnUnsatisfied fromWire(String s) {
        for (OnUnsatisfied o : values()) if (o.wire.equals(s)) return o;
        throw new IllegalArgumentException("unknown onUnsatisfied '" + s + "'");
    }
}
