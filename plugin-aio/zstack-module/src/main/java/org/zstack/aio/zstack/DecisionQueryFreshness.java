package org.zstack.aio.zstack;

import org.zstack.header.apimediator.ApiMessageInterceptionException;
import org.zstack.header.apimediator.GlobalApiMessageInterceptor;
import org.zstack.header.message.APIMessage;

import java.util.Collections;
import java.util.List;

/**
 * QueryVolumeIoModeDecision reads the table through ZStack's query service, not through {@link IoModeDecisionStore}:
 * before it does, the writes this node has queued are waited for (bounded), so a query right after a start on this
 * node finds the start's records, as {@code GetVolumeIoModeDecision} does.
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
