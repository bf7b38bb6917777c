package org.zstack.aio.zstack;

import org.zstack.aio.plugin.cache.IoFactsCache;
import org.zstack.aio.plugin.cache.IoFactsChange;
import org.zstack.aio.plugin.cache.IoFactsChanges;
import org.zstack.core.cloudbus.EventCallback;
import org.zstack.core.cloudbus.EventFacade;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.core.config.GlobalConfig;
import org.zstack.header.Component;
import org.zstack.resourceconfig.ResourceConfig;
import org.zstack.resourceconfig.ResourceConfigFacade;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Keeps every management node's {@link IoFactsCache} true: whoever writes a probe, a benchmark or a sample publishes
 * the change here after its write, which drops it from this node's memory at once and fires ZStack's canonical event
 * {@value #PATH} (data: {@link IoFactsChange#encode()}), which reaches every node, this one included. Each node's
 * listener drops what the change names, then reads a host's facts and benchmarks again at once, off any VM start, so
 * that the next start finds them in memory; a line it cannot read drops everything. The one bean to publish through:
 * {@code AioIoFactsChanges}.
 *
 * <p>The config rows the cache keeps are published here too ({@code CONFIGS <uuid>}), by ZStack's local update and
 * delete extensions of each io-mode config and qcow2.allocation, on the node that made the change (UpdateResourceConfig,
 * DeleteResourceConfig, the module's restore through ZStack's API). ZStack's own non-local extensions are not enough:
 * ZStack 5.2.0 sends a delete's canonical event on the update path (ResourceConfig.makeDeleteEventPath), where the
 * other nodes' listener cannot read it, so a deleted override would stay in their memory. A row changed by SQL by hand
 * is not heard, as ZStack's own in-memory configs do not hear it: a restart of the node reads it.
 */
public class AioIoFactsChanges implements IoFactsChanges, Component {
    private static final CLogger logger = Utils.getLogger(AioIoFactsChanges.class);

    public static final String PATH = "/aio/ioMode/factsChanged";

    private final EventFacade events;
    private final IoFactsCache cache;
    private final ResourceConfigFacade resourceConfigs;
    private final EventCallback<Object> listener = new EventCallback<Object>() {
        @Override
        protected void run(Map<String, String> tokens, Object data) {
            heard(data == null ? null : data.toString());
        }
    };

    public AioIoFactsChanges(EventFacade events, IoFactsCache cache, ResourceConfigFacade resourceConfigs) {
        this.events = events;
        this.cache = cache;
        this.resourceConfigs = resourceConfigs;
    }

    @Override
    public void publish(IoFactsChange change) {
        cache.apply(change); // this node reads its own write at its next start, whenever the event arrives
        events.fire(PATH, change.encode());
    }

    /** What the listener does with an event's data (another node's change, or this node's own coming back). */
    void heard(String line) {
        IoFactsChange change;
        try {
            change = IoFactsChange.decode(line);
        } catch (IllegalArgumentException e) {
            logger.warn("plugin-aio: " + PATH + " carried no change this version reads (" + e.getMessage()
                    + "); every host's facts and figures are read again");
            change = IoFactsChange.all();
        }
        cache.apply(change);
        warm(change);
    }

    /** A host's facts and benchmarks read again now, so that no VM start pays for them; profiles wait for a start. */
    private void warm(IoFactsChange change) {
        if (change.kind() != IoFactsChange.Kind.HOST_FACTS && change.kind() != IoFactsChange.Kind.BENCHMARK) return;
        for (String hostUuid : change.keys()) {
            try {
                if (change.kind() == IoFactsChange.Kind.HOST_FACTS) cache.host(hostUuid);
                cache.figures(hostUuid, Collections.emptyList());
            } catch (RuntimeException e) {
                logger.warn(String.format("plugin-aio: cannot read the io facts of host[uuid:%s] again; the next VM start"
                        + " on it reads them", hostUuid), e);
            }
        }
    }

    @Override
    public boolean start() {
        events.on(PATH, listener);
        for (GlobalConfig c : configsKeptInMemory()) {
            ResourceConfig rc = resourceConfigs.getResourceConfig(c.getIdentity());
            if (rc == null) {
                logger.warn(String.format("plugin-aio: ZStack has no resource config %s; a change of it on a volume or"
                        + " storage will not reach the rows kept in memory until the node restarts", c.getIdentity()));
                continue;
            }
            rc.installLocalUpdateExtension((config, resourceUuid, resourceType, oldValue, newValue) -> configChanged(resourceUuid));
            rc.installLocalDeleteExtension((config, resourceUuid, resourceType, originValue) -> configChanged(resourceUuid));
        }
        return true;
    }

    /** Every resource config whose rows {@link IoFactsCache#configRows} keeps: the io-mode ones and qcow2.allocation. */
    private static List<GlobalConfig> configsKeptInMemory() {
        List<GlobalConfig> out = new ArrayList<>();
        // a global-only config (onUnsatisfied, the measuring intervals) has its value in ZStack's memory: no rows
        for (IoModeConfig c : IoModeConfig.ALL) if (!c.bindings().isEmpty()) out.add(AioIoModeGlobalConfig.of(c));
        out.addAll(Qcow2Allocation.all());
        return out;
    }

    /** On the node that made the change, after ZStack wrote the row: dropped here at once, and on every node by the event. */
    private void configChanged(String resourceUuid) {
        publish(IoFactsChange.configs(Collections.singletonList(resourceUuid)));
    }

    @Override
    public boolean stop() {
        events.off(listener);
        return true;
    }
}
