package org.zstack.aio.decision;

/** kvm/vm.ioMode.onUnsatisfied. */
public enum OnUnsatisfied {
    FALLBACK, FAIL;

    public static OnUnsatisfied fromWire(String s) {
        return switch (s) {
            case "fallback" -> FALLBACK;
            case "fail" -> FAIL;
            default -> throw new IllegalArgumentException("unknown onUnsatisfied '" + s + "'");
        };
    }
}
