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
import org.zstack.header.message.APIReply;
import org.zstack.header.message.Message;
import org.zstack.identity.rbac.CheckIfAccountCanAccessResource;
import org.zstack.resourceconfig.ResourceConfigFacade;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.zstack.core.Platform.err;
import static org.zstack.core.Platform.operr;

/**
 * plugin-aio's service on a ZStack management node: checks its ZStack config declarations against the core's table,
 * builds the decision core from its rules at boot, installs the config validators, and answers
 * APIGetVolumeIoModeDecisionMsg, APIGetHostIoFactsMsg and APIGetIoModeManagementNodesMsg
 * (APIQueryVolumeIoModeDecisionMsg is answered by ZStack's query service). At start it also checks that its tables
 * exist ({@link AioSchema}) and restores the admin's config values a boot without the module deleted
 * ({@link AioConfigBackup}). The stored decision is declared a resource type with account references: its key is the volume's
 * uuid, so ZStack's account filter (AccountResourceRefVO, shared resources included) shows a tenant the decisions of
 * its own volumes only.
 */
public class AioIoModeComponent extends AbstractService implements AddtionalResourceTypeExtensionPoint {
    private static final CLogger logger = Utils.getLogger(AioIoModeComponent.class);
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
    private volatile AioSchema schema;
    private volatile AioConfigBackup configBackup;
    private volatile ManagementNodeStore nodes;
    private final ModuleVersion version = ModuleVersion.ofJar();

    @Override
    public boolean start() {
        ConfigDeclarations.requireAgreement();
        schema = new AioSchema(dbf);
        schema.check();
        nodes = new ManagementNodeStore(dbf);
        decider = new IoModeDecider(IoModeRulesLoader.fromClasspath());
        hostFacts = new HostIoFactsStore(dbf);
        facts = new VolumeFactsReader(rcf, hostFacts);
        planner = new DiskIoModePlanner(decider, new IoModeConfigResolver(decider.rules()), facts);
        store = new IoModeDecisionStore(dbf);
        new IoModeConfigValidation(decider, facts, rcf).install();
        // ZStack's GlobalConfigFacade and ResourceConfigFacade have loaded the configs (the module's Spring file is
        // imported after ZStack's own); the validators above check what is restored
        configBackup = new AioConfigBackup(new ConfigBackupStore(dbf), rcf, schema);
        configBackup.install();
        restoreConfigs();
        return true;
    }

    /** What the module's start does with the copies of the admin's values; never stops the node. */
    AioConfigBackup.Restored restoreConfigs() {
        try {
            return configBackup.restore();
        } catch (RuntimeException e) {
            logger.warn("plugin-aio: cannot restore the admin's config values from " + ConfigBackupStore.TABLE
                    + "; ZStack's values stay as they are", e);
            return new AioConfigBackup.Restored();
        }
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

    AioSchema schema() {
        return schema;
    }

    ManagementNodeStore nodes() {
        return nodes;
    }

    ModuleVersion version() {
        return version;
    }

    @Override
    public String getId() {
        return bus.makeLocalServiceId(SERVICE_ID);
    }

    @Override
    public void handleMessage(Message msg) {
        if (!(msg instanceof APIGetVolumeIoModeDecisionMsg || msg instanceof APIGetHostIoFactsMsg
                || msg instanceof APIGetIoModeManagementNodesMsg)) {
            bus.dealWithUnknownMessage(msg);
        } else if (!schema.ready()) {
            // upgrade_db was not run: the answer names the command instead of an SQL error
            APIReply reply = new APIReply();
            reply.setError(operr("%s", AioSchema.bootSentence(schema.missing())));
            bus.reply(msg, reply);
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
