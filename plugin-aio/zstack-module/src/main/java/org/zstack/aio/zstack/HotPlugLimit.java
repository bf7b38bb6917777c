package org.zstack.aio.zstack;

import org.zstack.aio.decision.IoMode;

/** The sentence saying that ZStack's unmodified agent cannot apply a mode when a volume is hot-plugged. */
final class HotPlugLimit {
    private HotPlugLimit() {
    }

    static String reason(String decisionReason, IoMode mode, String agentDefault) {
        String head = decisionReason.endsWith(".") ? decisionReason.substring(0, decisionReason.length() - 1) : decisionReason;
        return head + "; at hot-plug ZStack's agent can only add io=" + IoMode.NATIVE.wire() + " (the NativeAio addon), so"
                + " without the plugin-aio kvmagent patch this disk runs with " + agentDefault + " instead of "
                + mode.wire() + " until the VM is stopped and started again.";
    }
}
