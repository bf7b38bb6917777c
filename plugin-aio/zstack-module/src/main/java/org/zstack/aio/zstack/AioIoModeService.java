package org.zstack.aio.zstack;

import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.RefusedIoMode;
import org.zstack.core.cloudbus.CloudBus;
import org.zstack.header.AbstractService;
import org.zstack.header.errorcode.ErrorCode;
import org.zstack.header.errorcode.SysErrors;
import org.zstack.header.identity.AccountConstant;
import org.zstack.header.identity.AddtionalResourceTypeExtensionPoint;
import org.zstack.header.message.APIReply;
import org.zstack.header.message.Message;
import org.zstack.identity.rbac.CheckIfAccountCanAccessResource;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.zstack.core.Platform.err;
import static org.zstack.core.Platform.operr;

/**
 * plugin-aio's service on a ZStack management node: answers APIGetVolumeIoModeDecisionMsg, APIGetHostIoFactsMsg,
 * APIGetIoModeManagementNodesMsg and APIClearRefusedIoModeMsg (APIQueryVolumeIoModeDecisionMsg is answered by ZStack's query service). The stored
 * decision is declared a resource type with account references: its key is the volume's uuid, so ZStack's account
 * filter (AccountResourceRefVO, shared resources included) shows a tenant the decisions of its own volumes only.
 */
public class AioIoModeService extends AbstractService implements AddtionalResourceTypeExtensionPoint {
    private static final CLogger logger = Utils.getLogger(AioIoModeService.class);
    public static final String SERVICE_ID = "aioIoMode";

    private final CloudBus bus;
    private final AioSchema schema;
    private final IoModeDecisionStore decisions;
    private final HostFactsReader hosts;
    private final ManagementNodeStore nodes;
    private final RefusedIoModeStore refusals;
    private final WorkloadStore workloads;

    public AioIoModeService(CloudBus bus, AioSchema schema, IoModeDecisionStore decisions, HostFactsReader hosts,
                            ManagementNodeStore nodes, RefusedIoModeStore refusals, WorkloadStore workloads) {
        this.workloads = workloads;
        this.bus = bus;
        this.schema = schema;
        this.decisions = decisions;
        this.hosts = hosts;
        this.nodes = nodes;
        this.refusals = refusals;
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
        if (!(msg instanceof APIGetVolumeIoModeDecisionMsg || msg instanceof APIGetHostIoFactsMsg
                || msg instanceof APIGetIoModeManagementNodesMsg || msg instanceof APIClearRefusedIoModeMsg)) {
            bus.dealWithUnknownMessage(msg);
        } else if (!schema.ready()) {
            // upgrade_db was not run: the answer names the command instead of an SQL error
            ErrorCode missing = operr("%s", AioSchema.bootSentence(schema.missing()));
            if (msg instanceof APIClearRefusedIoModeMsg) {
                APIClearRefusedIoModeEvent evt = new APIClearRefusedIoModeEvent(msg.getId());
                evt.setError(missing);
                bus.publish(evt);
                return;
            }
            APIReply reply = new APIReply();
            reply.setError(missing);
            bus.reply(msg, reply);
        } else if (msg instanceof APIClearRefusedIoModeMsg) {
            handle((APIClearRefusedIoModeMsg) msg);
        } else if (msg instanceof APIGetVolumeIoModeDecisionMsg) {
            handle((APIGetVolumeIoModeDecisionMsg) msg);
        } else if (msg instanceof APIGetHostIoFactsMsg) {
            handle((APIGetHostIoFactsMsg) msg);
        } else {
            handle((APIGetIoModeManagementNodesMsg) msg);
        }
    }

    private void handle(APIGetVolumeIoModeDecisionMsg msg) {
        APIGetVolumeIoModeDecisionReply reply = new APIGetVolumeIoModeDecisionReply();
        String account = msg.getSession().getAccountUuid();
        // ZStack checks no owner for a read API (APISyncCallMessage): the module checks it, as ZStack's query does
        if (!AccountConstant.INITIAL_SYSTEM_ADMIN_UUID.equals(account)
                && !CheckIfAccountCanAccessResource.check(Collections.singletonList(msg.getVolumeUuid()), account).isEmpty()) {
            reply.setError(operr("the account[uuid:%s] has no access to the resources[uuid:%s, type:%s]", account,
                    Collections.singletonList(msg.getVolumeUuid()), "VolumeVO"));
            bus.reply(msg, reply);
            return;
        }
        DecisionRecord d = decisions.find(msg.getVolumeUuid());
        if (d == null) {
            reply.setError(err(SysErrors.RESOURCE_NOT_FOUND, "no io-mode decision is stored for volume[uuid:%s] yet;"
                    + " start a VM with this volume or attach it to a running VM", msg.getVolumeUuid()));
        } else {
            reply.setInventory(d.withWorkload(workloads.profile(msg.getVolumeUuid())));
        }
        bus.reply(msg, reply);
    }

    /** A host never probed is answered too: its facts are unknown, and each sentence says it was not probed. */
    private void handle(APIGetHostIoFactsMsg msg) {
        APIGetHostIoFactsReply reply = new APIGetHostIoFactsReply();
        reply.setInventory(hosts.facts(msg.getHostUuid()));
        bus.reply(msg, reply);
    }

    /** The refusals remembered on the host (of the storage and mode given) go; the event lists them. */
    private void handle(APIClearRefusedIoModeMsg msg) {
        APIClearRefusedIoModeEvent evt = new APIClearRefusedIoModeEvent(msg.getId());
        List<RefusedIoMode> found = refusals.find(msg.getHostUuid(), msg.getPrimaryStorageUuid(), msg.getIoMode());
        refusals.delete(found);
        for (RefusedIoMode r : found) {
            logger.info(String.format("plugin-aio: an admin cleared the refusal of %s on host[uuid:%s] and primary"
                    + " storage[uuid:%s] by %s (%s, %s)", r.getMode(), r.getHostUuid(), r.getPrimaryStorageUuid(),
                    r.getBy(), r.getRefusalId(), r.getRefusedAt()));
        }
        evt.setInventories(found);
        bus.publish(evt);
    }

    private void handle(APIGetIoModeManagementNodesMsg msg) {
        APIGetIoModeManagementNodesReply reply = new APIGetIoModeManagementNodesReply();
        List<IoModeManagementNodeInventory> out = new ArrayList<>();
        for (ManagementNodeStore.Node n : nodes.list()) out.add(IoModeManagementNodeInventory.of(n));
        reply.setInventories(out);
        bus.reply(msg, reply);
    }

    @Override
    public List<String> getAddtionalResourceType() {
        return Collections.singletonList(AioVolumeIoModeDecisionVO.class.getName());
    }
}
