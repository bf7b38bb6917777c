package org.zstack.aio.server.host;

import com.fasterxml.jackson.databind.JsonNode;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.Uuids;

/**
 * The parameters of {@code POST /v1/hosts/kvm} in both dialects. plugin-aio's fields {@code agentPort} and
 * {@code agentEnrollment} win; ZStack's AddKVMHostAction has no field for them, so they also come as system tags
 * {@code agentEnrollment::<token>} and {@code agentPort::<port>} (default 7070, the port of ZStack's own kvmagent).
 * ZStack's {@code username}, {@code password}, {@code sshPort} and {@code clusterUuid} are accepted and not used:
 * plugin-aio does not deploy agents over SSH. The token is a credential: never stored as a tag, never echoed.
 */
record AddHostParams(String name, String managementIp, int agentPort, String agentEnrollment) {

    static final String ENROLLMENT_TAG = "agentEnrollment::";
    static final String PORT_TAG = "agentPort::";
    static final int DEFAULT_AGENT_PORT = 7070;

    static AddHostParams read(JsonNode p) {
        String enrollment = Bodies.optText(p, "agentEnrollment");
        Integer port = p.has("agentPort") ? (int) Bodies.number(p, "agentPort", 1, 65535) : null;
        for (String tag : Bodies.systemTags(p, ENROLLMENT_TAG + "<output of bin/aio-agent enrollment>")) {
            if (tag.startsWith(ENROLLMENT_TAG)) {
                if (enrollment == null) enrollment = tag.substring(ENROLLMENT_TAG.length());
            } else if (tag.startsWith(PORT_TAG)) {
                int fromTag = portOf(tag.substring(PORT_TAG.length()));
                if (port == null) port = fromTag;
            } else {
                throw ApiException.badRequest("system tag '" + Uuids.abbreviate(tag) + "' is not supported on hosts.",
                        "Supported: " + ENROLLMENT_TAG + "<output of bin/aio-agent enrollment>, " + PORT_TAG + "<1-65535>.");
            }
        }
        return new AddHostParams(Bodies.text(p, "name"), Bodies.text(p, "managementIp"),
                port == null ? DEFAULT_AGENT_PORT : port, enrollment);
    }

    private static int portOf(String text) {
        if (text.matches("[0-9]{1,5}")) {
            int port = Integer.parseInt(text);
            if (port >= 1 && port <= 65535) return port;
        }
        throw ApiException.badRequest("system tag " + PORT_TAG + Uuids.abbreviate(text) + " does not name a port.",
                "Send " + PORT_TAG + "<1-65535>, the port bin/aio-agent listens on.");
    }
}
