package org.zstack.aio.zstack;

import org.zstack.header.apimediator.ApiMessageInterceptionException;
import org.zstack.header.apimediator.GlobalApiMessageInterceptor;
import org.zstack.header.message.APIMessage;

import java.util.Collections;
import java.util.List;

import static org.zstack.core.Platform.argerr;

/**
 * Refuses a RunIoModeBenchmark that cannot run before anything is sent to a host, with ZStack's argument error and one
 * sentence ({@link BenchmarkRequests#check}). ZStack's long-job interceptor runs the same interceptors on a submitted
 * job's message (APISubmitLongJobMsg with jobName APIRunIoModeBenchmarkMsg), so a long job is refused alike.
 */
public class BenchmarkRequestGuard implements GlobalApiMessageInterceptor {

    private final BenchmarkRequests requests;

    public BenchmarkRequestGuard(BenchmarkRequests requests) {
        this.requests = requests;
    }

    @Override
    public List<Class> getMessageClassToIntercept() {
        return Collections.<Class>singletonList(APIRunIoModeBenchmarkMsg.class);
    }

    @Override
    public InterceptorPosition getPosition() {
        return InterceptorPosition.END;
    }

    @Override
    public APIMessage intercept(APIMessage msg) throws ApiMessageInterceptionException {
        try {
            requests.check((APIRunIoModeBenchmarkMsg) msg);
        } catch (BenchmarkTargets.Refused e) {
            throw new ApiMessageInterceptionException(argerr("%s", e.getMessage()));
        }
        return msg;
    }
}
