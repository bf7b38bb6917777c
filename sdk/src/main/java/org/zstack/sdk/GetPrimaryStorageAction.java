package org.zstack.sdk;

/** Reads a primary storage. operationId {@code GetPrimaryStorage}. */
public class GetPrimaryStorageAction extends AbstractAction<GetPrimaryStorageResult> {
    @Param
    public String uuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/primary-storage/{uuid}");
    }

    @Override
    protected Class<GetPrimaryStorageResult> getResultClass() {
        return GetPrimaryStorageResult.class;
    }
}
