package org.zstack.aio.zstack;

import org.zstack.header.apimediator.ApiMessageInterceptionException;
import org.zstack.header.apimediator.GlobalApiMessageInterceptor;
import org.zstack.header.message.APIMessage;

import java.util.Collections;
import java.util.List;

/**
 * QueryVolumeIoModeDecision reads the table through ZStack's query service, not through {@link IoModeDecisionStore}:
 * before it does, the writes this node has queued are waited for (10 s at most in all), so a query this node answers
 * right after a start it ran finds the start's records, as {@code GetVolumeIoModeDecision} does. ZStack runs a VM's
 * start on the node that owns the VM and a query on the node that received it: with several nodes, a query may come
 * a few milliseconds before another node's queued write lands (docs/zstack-module.md, "Cost").
 */
public class DecisionQueryFreshness implements GlobalApiMessageInterceptor {

    private final IoModeDecisionStore store;

    public DecisionQueryFreshness(IoModeDecisionStore store) {
        this.store = store;
    }

    @Override
    public List<Class> getMessageClassToIntercept() {
        return Collections.<Class>singletonList(APIQueryVolumeIoModeDecisionMsg.class);
    }

    @Override
    public InterceptorPosition getPosition() {
        return InterceptorPosition.END;
    }

    @Override
    public APIMessage intercept(APIMessage msg) throws ApiMessageInterceptionException {
        store.awaitAllWrites();
        return msg;
    }
}
