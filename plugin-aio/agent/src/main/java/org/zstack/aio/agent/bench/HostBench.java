package org.zstack.aio.agent.bench;

import org.zstack.aio.agent.api.HostBenchCancelCmd;
import org.zstack.aio.agent.api.HostBenchCmd;
import org.zstack.aio.agent.api.HostBenchRsp;

import java.util.LinkedHashMap;
import java.util.Map;

/** The agent's benchmark endpoints: one benchmark at a time per host, never alongside a VM start. */
public final class HostBench {

    private final HostActivity activity;
    private volatile IoBenchmark running;

    public HostBench(HostActivity activity) {
        this.activity = activity;
    }

    public HostBenchRsp bench(HostBenchCmd cmd) {
        IoBenchmark b = new IoBenchmark(cmd);
        return activity.benchmark(() -> b.cancel("a VM start arrived on this host"), () -> {
            running = b;
            try {
                return b.run();
            } finally {
                running = null;
            }
        });
    }

    public Map<String, Object> cancel(HostBenchCancelCmd cmd) {
        IoBenchmark b = running;
        if (b != null) b.cancel("cancelled by request");
        Map<String, Object> rsp = new LinkedHashMap<>();
        rsp.put("cancelled", b != null);
        return rsp;
    }
}
