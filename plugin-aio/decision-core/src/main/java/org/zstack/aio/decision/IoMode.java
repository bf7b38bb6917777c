package org.zstack.aio.decision;

/**
 * A QEMU disk io mode that can be put in {@code <driver io=...>}. This enum is the one declaration of the modes and
 * their names: the server, the agent, the SDK and the API's valid values all read it.
 */
public enum IoMode {
    THREADS("threads"), NATIVE("native"), IO_URING("io_uring");

    private final String wire;

    IoMode(String wire) { this.wire = wire; }

    /** The name libvirt, QEMU and the API use. */
    public String wire() { return wire; }

    public static IoMode fromWire(String s) {
        IoMode m = fromWireOrNull(s);
        if (m == null) throw new IllegalArgumentException("unknown io mode '" + s + "'");
        return m;
    }

    /** The mode of this name, or null when none has it. */
    public static IoMode fromWireOrNull(String s) {
        for (IoMode m : values()) if (m.wire.equals(s)) return m;
        return null;
    }
}
