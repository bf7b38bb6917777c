package org.zstack.aio.zstack;

import org.zstack.aio.decision.Check;

/** One check of a decision, as the API returns and the database stores it. */
public class IoModeCheckInventory {
    private String mode;
    private String check;
    private boolean passed;
    private String message;

    public static IoModeCheckInventory valueOf(Check c) {
        IoModeCheckInventory i = new IoModeCheckInventory();
        i.mode = c.mode();
        i.check = c.check();
        i.passed = c.passed();
        i.message = c.message();
        return i;
    }

    public String getMode() { return mode; }
    public void setMode(String mode) { this.mode = mode; }
    public String getCheck() { return check; }
    public void setCheck(String check) { this.check = check; }
    public boolean isPassed() { return passed; }
    public void setPassed(boolean passed) { this.passed = passed; }
    public String getMessage() { return message; }
    public void setMessage(String message) { this.message = message; }
}
