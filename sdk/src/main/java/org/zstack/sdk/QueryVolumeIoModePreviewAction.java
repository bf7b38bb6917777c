package org.zstack.sdk;

/** What the next VM start would decide for every volume the caller can see. operationId {@code QueryVolumeIoModePreview}. */
public class QueryVolumeIoModePreviewAction extends AbstractAction<QueryVolumeIoModePreviewResult> {

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/io-mode/previews");
    }

    @Override
    protected Class<QueryVolumeIoModePreviewResult> getResultClass() {
        return QueryVolumeIoModePreviewResult.class;
    }
}
