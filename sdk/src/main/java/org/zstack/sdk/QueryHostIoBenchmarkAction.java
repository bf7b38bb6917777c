package org.zstack.sdk;

/** The stored io benchmarks of a host, one per primary storage, with when they were taken (admin only). operationId {@code QueryHostIoBenchmark}. */
public class QueryHostIoBenchmarkAction extends AbstractAction<QueryHostIoBenchmarkResult> {
    @Param
    public String uuid;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.get("/v1/hosts/{uuid}/io-benchmarks");
    }

    @Override
    protected Class<QueryHostIoBenchmarkResult> getResultClass() {
        return QueryHostIoBenchmarkResult.class;
    }
}
