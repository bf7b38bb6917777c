package org.zstack.sdk;

/** Reconnects a host and probes its facts again (admin only). operationId {@code ReconnectHost}. */
public class ReconnectHostAction extends AbstractAction<ReconnectHostResult> {
    @Param
    public String uuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.put("/v1/hosts/{uuid}/actions", "reconnectHost");
    }

    @Override
    protected Class<ReconnectHostResult> getResultClass() {
        return ReconnectHostResult.class;
    }
}
