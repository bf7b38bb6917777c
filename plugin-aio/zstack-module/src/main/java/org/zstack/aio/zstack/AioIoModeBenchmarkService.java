package org.zstack.aio.zstack;

import org.zstack.core.cloudbus.CloudBus;
import org.zstack.header.AbstractService;
import org.zstack.header.errorcode.ErrorCode;
import org.zstack.header.message.Message;

import static org.zstack.core.Platform.operr;

/**
 * Answers RunIoModeBenchmark called directly (not as a long job): the event is published when the benchmark has ended
 * (ZStack's REST API polls for it). The module's tables missing (upgrade_db not run) is answered with the command.
 */
public class AioIoModeBenchmarkService extends AbstractService {
    public static final String SERVICE_ID = "aioIoModeBenchmark";

    private final CloudBus bus;
    private final AioSchema schema;
    private final BenchmarkRequests requests;

    public AioIoModeBenchmarkService(CloudBus bus, AioSchema schema, BenchmarkRequests requests) {
        this.bus = bus;
        this.schema = schema;
        this.requests = requests;
    }

    @Override
    public boolean start() {
        return true;
    }

    @Override
    public boolean stop() {
        return true;
    }

    @Override
    public String getId() {
        return bus.makeLocalServiceId(SERVICE_ID);
    }

    @Override
    public void handleMessage(Message msg) {
        if (!(msg instanceof APIRunIoModeBenchmarkMsg)) {
            bus.dealWithUnknownMessage(msg);
            return;
        }
        APIRunIoModeBenchmarkMsg m = (APIRunIoModeBenchmarkMsg) msg;
        if (!schema.ready()) {
            APIRunIoModeBenchmarkEvent evt = new APIRunIoModeBenchmarkEvent(m.getId());
            evt.setError(operr("%s", AioSchema.bootSentence(schema.missing())));
            bus.publish(evt);
            return;
        }
        requests.run(m, m.getId(), m.getId(), new BenchmarkRequests.Answer() {
            @Override
            public void success(APIRunIoModeBenchmarkEvent event) {
                bus.publish(event);
            }

            @Override
            public void fail(ErrorCode error) {
                APIRunIoModeBenchmarkEvent evt = new APIRunIoModeBenchmarkEvent(m.getId());
                evt.setError(error);
                bus.publish(evt);
            }
        });
    }
}
