package org.zstack.sdk;

/** Reads a host with its io capabilities. operationId {@code GetHost}. */
public class GetHostAction extends AbstractAction<GetHostResult> {
    @Param
    public String uuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/hosts/{uuid}");
    }

    @Override
    protected Class<GetHostResult> getResultClass() {
        return GetHostResult.class;
    }
}
