package org.zstack.sdk;

import java.util.HashMap;
import java.util.Map;

/** ZStack Java SDK action for plugin-aio's APIQueryIoModeBenchmarkMsg (admin only): GET /v1/io-mode-benchmarks. */
public class QueryIoModeBenchmarkAction extends AioQueryAction<QueryIoModeBenchmarkResult> {

    private static final HashMap<String, Parameter> parameterMap = new HashMap<>();

    private static final HashMap<String, Parameter> nonAPIParameterMap = new HashMap<>();

    public QueryIoModeBenchmarkAction() {
        super(QueryIoModeBenchmarkResult.class, "/io-mode-benchmarks");
    }

    protected Map<String, Parameter> getParameterMap() {
        return parameterMap;
    }

    protected Map<String, Parameter> getNonAPIParameterMap() {
        return nonAPIParameterMap;
    }
}
