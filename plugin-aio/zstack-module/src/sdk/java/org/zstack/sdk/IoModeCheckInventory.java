package org.zstack.sdk;

/** One check of an io-mode decision: the mode it belongs to, its name, whether it passed, and its sentence. */
public class IoModeCheckInventory {
    public java.lang.String mode;
    public java.lang.String check;
    public boolean passed;
    public java.lang.String message;

    public java.lang.String getMode() { return mode; }
    public java.lang.String getCheck() { return check; }
    public boolean isPassed() { return passed; }
    public java.lang.String getMessage() { return message; }
}
