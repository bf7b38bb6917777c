package org.zstack.aio.test.support;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/** Reading a decision as the API answers it (GET /v1/volumes/{uuid}/io-mode). */
public final class Decisions {

    private Decisions() {
    }

    /** The names of the checks of {@code mode} that failed, in the decision's order. */
    public static List<String> failedChecks(JsonNode decision, String mode) {
        List<String> out = new ArrayList<>();
        decision.path("checks").forEach(c -> {
            if (mode.equals(c.path("mode").asText()) && !c.path("passed").asBoolean()) out.add(c.path("check").asText());
        });
        return out;
    }
}
