package org.zstack.sdk;

/** Creates a data volume; the host's agent creates the image. operationId {@code CreateDataVolume}. */
public class CreateDataVolumeAction extends AbstractAction<CreateDataVolumeResult> {
    @Param
    public String name;

    /** Virtual size in bytes. */
    @Param
    public Long size;

    /** qcow2 (the default) or raw. */
    @Param(required = false)
    public String format;

    /** none, metadata, falloc or full; null for the storage type's default. */
    @Param(required = false)
    public String preallocation;

    @Param
    public String primaryStorageUuid;

    /** The host whose agent creates the image; null: any connected host. */
    @Param(required = false)
    public String hostUuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.post("/v1/volumes/data", "params");
    }

    @Override
    protected Class<CreateDataVolumeResult> getResultClass() {
        return CreateDataVolumeResult.class;
    }
}
