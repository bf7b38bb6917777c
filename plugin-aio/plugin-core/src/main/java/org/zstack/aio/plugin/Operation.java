package org.zstack.aio.plugin;

/** When a decision was applied to a disk: the record says which, so "decided at start" and "at hot-plug" differ. */
public enum Operation {
    START("start"), ATTACH("attach"), MIGRATE("migrate");

    private final String wire;

    Operation(String wire) { this.wire = wire; }

    public String wire() { return wire; }

    public static Operation fromWire(String s) {
        for (Operation o : values()) if (o.wire.equals(s)) return o;
        throw new IllegalArgumentException("unknown operation '" + s + "'");
    }
}
