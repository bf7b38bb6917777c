package org.zstack.aio.decision;

/**
 * One precondition of one mode, evaluated.
 *
 * @param mode    the mode the check belongs to (threads, native, io_uring), or the requested value for
 *                checks about the volume as a whole
 * @param check   a stable short name (cache-mode, non-sparse-image, kernel-version, ...)
 * @param message a sentence a person understands, saying what was found and, on failure, what to do
 */
public record Check(String mode, String check, boolean passed, String message) {
}
