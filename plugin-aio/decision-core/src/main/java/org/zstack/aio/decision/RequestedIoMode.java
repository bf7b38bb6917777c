package org.zstack.aio.decision;

/** A value of kvm/vm.ioMode: one of the io modes, or auto. */
public enum RequestedIoMode {
    THREADS(IoMode.THREADS), NATIVE(IoMode.NATIVE), IO_URING(IoMode.IO_URING), AUTO(null);

    private final IoMode mode;

    RequestedIoMode(IoMode mode) { this.mode = mode; }

    /** The config value: the mode's own name, or auto. */
    public String wire() { return mode == null ? "auto" : mode.wire(); }

    /** The concrete mode asked for, or null for auto. */
    public IoMode mode() { return mode; }

    public static RequestedIoMode of(IoMode mode) {
        for (RequestedIoMode r : values()) if (r.mode == mode && mode != null) return r;
        throw new IllegalArgumentException("no requested value for mode " + mode);
    }

    public static RequestedIoMode fromWire(String s) {
        for (RequestedIoMode m : values()) if (m.wire().equals(s)) return m;
        throw new IllegalArgumentException("unknown io mode '" + s + "'");
    }
}
