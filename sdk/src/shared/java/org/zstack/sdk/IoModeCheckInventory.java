package org.zstack.sdk;

/** One precondition of one io mode, evaluated. */
public class IoModeCheckInventory {
    /** threads, native or io_uring (or the requested value for checks about the volume as a whole). */
    public String mode;

    /** A stable short name: cache-mode, non-sparse-image, kernel-version, ... */
    public String check;

    public boolean passed;

    /** A sentence saying what was found and, on failure, what to do. */
    public String message;
}
