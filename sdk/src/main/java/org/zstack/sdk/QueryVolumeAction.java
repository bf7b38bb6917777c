package org.zstack.sdk;

/** Lists the volumes the caller may see. operationId {@code QueryVolume}. */
public class QueryVolumeAction extends QueryAction<QueryVolumeResult> {
    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/volumes");
    }

    @Override
    protected Class<QueryVolumeResult> getResultClass() {
        return QueryVolumeResult.class;
    }
}
