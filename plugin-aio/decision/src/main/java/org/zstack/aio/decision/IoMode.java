package org.zstack.aio.decision;

/** A QEMU disk io mode that can be put in {@code <driver io=...>}. */
public enum IoMode {
    THREADS("threads"), NATIVE("native"), IO_URING("io_uring");

    private final String wire;

    IoMode(String wire) { this.wire = wire; }

    /** The name libvirt, QEMU and the API use. */
    public String wire() { return wire; }

    public static IoMode fromWire(String s) {
        for (IoMode m : values()) if (m.wire.equals(s)) return m;
        throw new IllegalArgumentException("unknown io mode '" + s + "'");
    }
}
