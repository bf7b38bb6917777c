package org.zstack.aio.server.agent;

import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;

/**
 * The agent received a command and then gave no answer (timeout, broken connection): it may or may not have
 * carried it out. A caller that can undo the command (a VM start: stop it again) should try, so that its own
 * answer can be definite; otherwise this 503 says the outcome is unknown.
 */
public class AgentOutcomeUnknownException extends ApiException {
    public AgentOutcomeUnknownException(String description, String details) {
        super(ErrorCode.AGENT_UNREACHABLE, description, details);
    }
}
