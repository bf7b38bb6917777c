package org.zstack.aio.decision;

/** A value of kvm/vm.ioMode: one of the io modes, or auto. */
public enum RequestedIoMode {
    THREADS("threads", IoMode.THREADS), NATIVE("native", IoMode.NATIVE),
    IO_URING("io_uring", IoMode.IO_URING), AUTO("auto", null);

    private final String wire;
    private final IoMode mode;

    RequestedIoMode(String wire, IoMode mode) { this.wire = wire; this.mode = mode; }

    public String wire() { return wire; }

    /** The concrete mode asked for, or null for auto. */
    public IoMode mode() { return mode; }

    public static RequestedIoMode fromWire(String s) {
        for (RequestedIoMode m : values()) if (m.wire.equals(s)) return m;
        throw new IllegalArgumentException("unknown io mode '" + s + "'");
    }
}
