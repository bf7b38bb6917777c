package org.zstack.sdk;

/** Reconnects a host and probes its facts again, optionally enrolling it again (admin only). operationId {@code ReconnectHost}. */
public class ReconnectHostAction extends AbstractAction<ReconnectHostResult> {
    @Param
    public String uuid;

    /** A new enrollment token (after {@code bin/aio-agent enrollment --rotate}); null keeps the current one. */
    @Param(required = false)
    public String agentEnrollment;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.put("/v1/hosts/{uuid}/actions", "reconnectHost");
    }

    @Override
    protected Class<ReconnectHostResult> getResultClass() {
        return ReconnectHostResult.class;
    }
}
