package org.zstack.sdk;

/** Reads a volume. operationId {@code GetVolume}. */
public class GetVolumeAction extends AbstractAction<GetVolumeResult> {
    @Param
    public String uuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/volumes/{uuid}");
    }

    @Override
    protected Class<GetVolumeResult> getResultClass() {
        return GetVolumeResult.class;
    }
}
