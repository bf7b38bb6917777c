package org.zstack.sdk;

/** Creates a tenant account (admin only). operationId {@code CreateAccount}. */
public class CreateAccountAction extends AbstractAction<CreateAccountResult> {
    @Param
    public String name;

    @Param
    public String password;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.post("/v1/accounts", "params");
    }

    @Override
    protected Class<CreateAccountResult> getResultClass() {
        return CreateAccountResult.class;
    }
}
