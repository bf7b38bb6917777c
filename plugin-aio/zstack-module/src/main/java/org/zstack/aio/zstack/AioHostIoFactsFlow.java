package org.zstack.aio.zstack;

import org.zstack.aio.plugin.cache.IoFactsChange;
import org.zstack.aio.plugin.cache.IoFactsChanges;
import org.zstack.core.cloudbus.CloudBus;
import org.zstack.core.cloudbus.CloudBusCallBack;
import org.zstack.core.timeout.ApiTimeoutManagerImpl;
import org.zstack.header.core.workflow.Flow;
import org.zstack.header.core.workflow.FlowTrigger;
import org.zstack.header.core.workflow.NoRollbackFlow;
import org.zstack.header.host.HostAfterConnectedExtensionPoint;
import org.zstack.header.host.HostConstant;
import org.zstack.header.host.HostInventory;
import org.zstack.header.message.MessageReply;
import org.zstack.kvm.KVMConstant;
import org.zstack.kvm.KVMHostConnectExtensionPoint;
import org.zstack.kvm.KVMHostConnectedContext;
import org.zstack.kvm.KvmRunShellMsg;
import org.zstack.utils.TaskContext;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.HashMap;
import java.util.Map;

/**
 * At every connect and reconnect of a KVM host, runs the host probe (conf/aio/host-probe.sh, in the module's jar, with
 * the host's file storages' paths: {@link HostProbeCall}) through ZStack's own KvmRunShellMsg (SSH, as ZStack's
 * connect flows do) and stores what it printed, or why it printed nothing; then the refusals the new facts clear go
 * ({@link ProbeRefusalClearing}). The probe never blocks the connect: a failure leaves the host's facts unknown, and the decision's
 * checks say so; each QEMU call in the script is bounded by timeout(1). After its write,
 * and again once the whole connect is done (ZStack records the host's QEMU and libvirt versions, which the facts read
 * too, in its own connect flows), the host's facts are published as changed, so every node reads them again.
 */
public class AioHostIoFactsFlow implements KVMHostConnectExtensionPoint, HostAfterConnectedExtensionPoint {
    private static final CLogger logger = Utils.getLogger(AioHostIoFactsFlow.class);

    private final CloudBus bus;
    private final HostIoFactsStore store;
    private final AioSchema schema;
    private final HostProbeCall probe;
    private final ProbeRefusalClearing clearing;
    private final IoFactsChanges changes;

    public AioHostIoFactsFlow(CloudBus bus, HostIoFactsStore store, AioSchema schema, HostProbeCall probe,
                              ProbeRefusalClearing clearing, IoFactsChanges changes) {
        this.bus = bus;
        this.store = store;
        this.schema = schema;
        this.probe = probe;
        this.clearing = clearing;
        this.changes = changes;
    }

    @Override
    public Flow createKvmHostConnectingFlow(KVMHostConnectedContext context) {
        final String hostUuid = context.getInventory().getUuid();
        return new NoRollbackFlow() {
            String __name__ = "aio-probe-host-io-facts";

            @Override
            public void run(FlowTrigger trigger, Map data) {
                if (!schema.readyFor("the io-facts probe of host[uuid:" + hostUuid + "]")) {
                    trigger.next(); // nowhere to store what it prints
                    return;
                }
                String command;
                try {
                    command = probe.command(hostUuid);
                } catch (RuntimeException e) {
                    // the probe never blocks the connect: the facts stay as they were
                    logger.warn(String.format("cannot make plugin-aio's host probe for host[uuid:%s]", hostUuid), e);
                    trigger.next();
                    return;
                }
                KvmRunShellMsg msg = new KvmRunShellMsg();
                msg.setHostUuid(hostUuid);
                msg.setScript(command);
                // no timeout of its own: ZStack's bus would make its deadline the deadline of every later message of
                // this connect (ApiTimeoutManagerImpl's task context); the script bounds its QEMU calls with timeout(1)
                bus.makeTargetServiceIdByResourceUuid(msg, HostConstant.SERVICE_ID, hostUuid);
                // the connect's message timeout and deadline: delivering a reply may overwrite them in the task context
                // (ApiTimeoutManagerImpl.beforeDeliveryMessage gives a reply none, so the next message of the connect
                // would time out at once); they are put back before the connect goes on
                final Map<Object, Object> timeouts = connectTimeouts();
                bus.send(msg, new CloudBusCallBack(trigger) {
                    @Override
                    public void run(MessageReply reply) {
                        for (Map.Entry<Object, Object> e : timeouts.entrySet()) {
                            TaskContext.putTaskContextItem(e.getKey(), e.getValue());
                        }
                        try {
                            store(hostUuid, reply);
                        } catch (RuntimeException e) {
                            logger.warn(String.format("cannot store the io facts of host[uuid:%s]", hostUuid), e);
                        }
                        trigger.next();
                    }
                });
            }
        };
    }

    private static Map<Object, Object> connectTimeouts() {
        Map<Object, Object> out = new HashMap<>();
        for (String key : new String[]{ApiTimeoutManagerImpl.TASK_CONTEXT_MESSAGE_TIMEOUT,
                ApiTimeoutManagerImpl.TASK_CONTEXT_MESSAGE_DEADLINE}) {
            Object v = TaskContext.getTaskContextItem(key);
            if (v != null) out.put(key, v);
        }
        return out;
    }

    @Override
    public void afterHostConnected(HostInventory host) {
        if (host.getHypervisorType() != null && !KVMConstant.KVM_HYPERVISOR_TYPE.equals(host.getHypervisorType())) return;
        if (schema.ready()) changes.publish(IoFactsChange.hostFacts(host.getUuid()));
    }

    private void store(String hostUuid, MessageReply reply) {
        HostShell.Output out = HostShell.outputOf(reply);
        if (!out.ok()) {
            logger.warn(String.format("plugin-aio's host probe failed on host[uuid:%s]: %s", hostUuid, out.failure));
        }
        store.save(hostUuid, out.stdout, out.failure);
        if (out.ok()) clearing.afterProbe(hostUuid);
        changes.publish(IoFactsChange.hostFacts(hostUuid)); // every node reads the host's new facts again
    }
}
