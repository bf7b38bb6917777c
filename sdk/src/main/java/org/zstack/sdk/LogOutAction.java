package org.zstack.sdk;

/** Ends a session (usually your own). operationId {@code LogOut}. */
public class LogOutAction extends AbstractAction<LogOutResult> {
    /** The session to end. */
    @Param
    public String sessionUuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.delete("/v1/accounts/sessions/{sessionUuid}");
    }

    @Override
    protected Class<LogOutResult> getResultClass() {
        return LogOutResult.class;
    }
}
