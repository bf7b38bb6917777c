package org.zstack.aio.decision;

/** A mode libvirt or QEMU refused when the VM started, with their error. */
public final class Refusal {

    private final IoMode mode;
    private final String error;

    public Refusal(IoMode mode, String error) {
        this.mode = mode;
        this.error = error;
    }

    public IoMode mode() { return mode; }

    public String error() { return error; }

    @Override
    public String toString() { return mode.wire() + " (" + error + ")"; }
}
