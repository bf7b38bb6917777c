package org.zstack.sdk;

/** Reads a host's io facts, the same inventory as ZStack's GetHostIoFacts. operationId {@code GetHostIoFacts}. */
public class GetHostIoFactsAction extends AbstractAction<GetHostIoFactsResult> {
    @Param
    public String uuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/hosts/{uuid}/io-facts");
    }

    @Override
    protected Class<GetHostIoFactsResult> getResultClass() {
        return GetHostIoFactsResult.class;
    }
}
