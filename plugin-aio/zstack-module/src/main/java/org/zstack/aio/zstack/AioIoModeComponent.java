package org.zstack.aio.zstack;

import org.springframework.beans.factory.annotation.Autowired;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.rules.IoModeRulesLoader;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.core.cloudbus.CloudBus;
import org.zstack.core.db.DatabaseFacade;
import org.zstack.header.AbstractService;
import org.zstack.header.errorcode.SysErrors;
import org.zstack.header.identity.AccountConstant;
import org.zstack.header.identity.AddtionalResourceTypeExtensionPoint;
import org.zstack.header.message.Message;
import org.zstack.identity.rbac.CheckIfAccountCanAccessResource;
import org.zstack.resourceconfig.ResourceConfigFacade;

import java.util.Collections;
import java.util.List;

import static org.zstack.core.Platform.err;
import static org.zstack.core.Platform.operr;

/**
 * plugin-aio's service on a ZStack management node: checks its ZStack config declarations against the core's table,
 * builds the decision core from its rules at boot, installs the config validators, and answers
 * APIGetVolumeIoModeDecisionMsg and APIGetHostIoFactsMsg (APIQueryVolumeIoModeDecisionMsg is answered by ZStack's
 * query service). The stored decision is declared a resource type with account references: its key is the volume's
 * uuid, so ZStack's account filter (AccountResourceRefVO, shared resources included) shows a tenant the decisions of
 * its own volumes only.
 */
public class AioIoModeComponent extends AbstractService implements AddtionalResourceTypeExtensionPoint {
    public static final String SERVICE_ID = "aioIoMode";

    @Autowired
    private CloudBus bus;
    @Autowired
    private DatabaseFacade dbf;
    @Autowired
    private ResourceConfigFacade rcf;

    private volatile DiskIoModePlanner planner;
    private volatile IoModeDecisionStore store;
    private volatile HostIoFactsStore hostFacts;
    private volatile VolumeFactsReader facts;
    private volatile IoModeDecider decider;

    @Override
    public boolean start() {
        ConfigDeclarations.requireAgreement();
        decider = new IoModeDecider(IoModeRulesLoader.fromClasspath());
        hostFacts = new HostIoFactsStore(dbf);
        facts = new VolumeFactsReader(rcf, hostFacts);
        planner = new DiskIoModePlanner(decider, new IoModeConfigResolver(decider.rules()), facts);
        store = new IoModeDecisionStore(dbf);
        new IoModeConfigValidation(decider, facts, rcf).install();
        return true;
    }

    @Override
    public boolean stop() {
        return true;
    }

    DiskIoModePlanner planner() {
        return planner;
    }

    IoModeDecisionStore store() {
        return store;
    }

    HostIoFactsStore hostFacts() {
        return hostFacts;
    }

    VolumeFactsReader facts() {
        return facts;
    }

    IoModeDecider decider() {
        return decider;
    }

    CloudBus bus() {
        return bus;
    }

    @Override
    public String getId() {
        return bus.makeLocalServiceId(SERVICE_ID);
    }

    @Override
    public void handleMessage(Message msg) {
        if (msg instanceof APIGetVolumeIoModeDecisionMsg) {
            handle((APIGetVolumeIoModeDecisionMsg) msg);
        } else if (msg instanceof APIGetHostIoFactsMsg) {
            handle((APIGetHostIoFactsMsg) msg);
        } else {
            bus.dealWithUnknownMessage(msg);
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
        DecisionRecord d = store.find(msg.getVolumeUuid());
        if (d == null) {
            reply.setError(err(SysErrors.RESOURCE_NOT_FOUND, "no io-mode decision is stored for volume[uuid:%s] yet;"
                    + " start a VM with this volume or attach it to a running VM", msg.getVolumeUuid()));
        } else {
            reply.setInventory(d);
        }
        bus.reply(msg, reply);
    }

    /** A host never probed is answered too: its facts are unknown, and each sentence says it was not probed. */
    private void handle(APIGetHostIoFactsMsg msg) {
        APIGetHostIoFactsReply reply = new APIGetHostIoFactsReply();
        HostIoFactsStore.Probed row = hostFacts.find(msg.getHostUuid());
        reply.setInventory(HostIoFactsInventory.of(facts.probe(msg.getHostUuid(), row), row));
        bus.reply(msg, reply);
    }

    @Override
    public List<String> getAddtionalResourceType() {
        return Collections.singletonList(AioVolumeIoModeDecisionVO.class.getName());
    }
}
