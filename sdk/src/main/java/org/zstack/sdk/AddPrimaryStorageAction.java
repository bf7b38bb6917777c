package org.zstack.sdk;

/** Adds a primary storage (admin only). operationId {@code AddPrimaryStorage}. */
public class AddPrimaryStorageAction extends AbstractAction<AddPrimaryStorageResult> {
    @Param
    public String name;

    /** LocalStorage, NFS, SharedMountPoint, SharedBlock or Ceph. */
    @Param
    public String type;

    /** The absolute path the hosts mount it at, or e.g. {@code ceph://pool}. */
    @Param
    public String url;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.post("/v1/primary-storage", "params");
    }

    @Override
    protected Class<AddPrimaryStorageResult> getResultClass() {
        return AddPrimaryStorageResult.class;
    }
}
