package org.zstack.sdk;

/** Lists the VMs the caller may see. operationId {@code QueryVmInstance}. */
public class QueryVmInstanceAction extends QueryAction<QueryVmInstanceResult> {
    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/vm-instances");
    }

    @Override
    protected Class<QueryVmInstanceResult> getResultClass() {
        return QueryVmInstanceResult.class;
    }
}
