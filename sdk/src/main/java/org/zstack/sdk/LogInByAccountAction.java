package org.zstack.sdk;

/** Logs in; the only call without a session. operationId {@code LogInByAccount}. */
public class LogInByAccountAction extends AbstractAction<LogInByAccountResult> {
    @Param
    public String accountName;

    @Param
    public String password;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.put("/v1/accounts/login", "logInByAccount").withoutSession();
    }

    @Override
    protected Class<LogInByAccountResult> getResultClass() {
        return LogInByAccountResult.class;
    }
}
