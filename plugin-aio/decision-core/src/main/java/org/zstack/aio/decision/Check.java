package org.zstack.aio.decision;

import java.util.Objects;

/** One precondition of one mode, evaluated. */
public final class Check {

    private final String mode;
    private final String check;
    private final boolean passed;
    private final String message;

    /**
     * @param mode    the mode the check belongs to (its {@link IoMode#wire()} name), or the requested value for
     *                checks about the volume as a whole
     * @param check   a stable short name (cache-mode, non-sparse-image, kernel-version, ...)
     * @param message a sentence a person understands, saying what was found and, on failure, what to do
     */
    public Check(String mode, String check, boolean passed, String message) {
        this.mode = mode;
        this.check = check;
        this.passed = passed;
        this.message = message;
    }

    public String mode() { return mode; }

    public String check() { return check; }

    public boolean passed() { return passed; }

    public String message() { return message; }

    /** Whether this check belongs to {@code m}. */
    public boolean isOf(IoMode m) { return m.wire().equals(mode); }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Check)) return false;
        Check c = (Check) o;
        return passed == c.passed && Objects.equals(mode, c.mode) && Objects.equals(check, c.check)
               && Objects.equals(message, c.message);
    }

    @Override
    public int hashCode() { return Objects.hash(mode, check, passed, message); }

    @Override
    public String toString() { return "Check[mode=" + mode + ", check=" + check + ", passed=" + passed + ", message=" + message + "]"; }
}
