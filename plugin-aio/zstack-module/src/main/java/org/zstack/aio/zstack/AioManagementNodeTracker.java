package org.zstack.aio.zstack;

import org.zstack.header.managementnode.ManagementNodeChangeListener;
import org.zstack.header.managementnode.ManagementNodeInventory;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

/**
 * Writes this node's row into AioManagementNodeVO when it joins (ZStack calls iJoin right after it writes the node's
 * ManagementNodeVO row, which it deletes and writes again at every start: the row's foreign key would take ours with
 * it if it were written earlier), and removes a node's row when ZStack reports it gone. A failure here never stops
 * the node: the list is for the admin to read.
 */
public class AioManagementNodeTracker implements ManagementNodeChangeListener {
    private static final CLogger logger = Utils.getLogger(AioManagementNodeTracker.class);

    private final AioSchema schema;
    private final ManagementNodeStore nodes;
    private final ModuleVersion version = ModuleVersion.ofJar();

    public AioManagementNodeTracker(AioSchema schema, ManagementNodeStore nodes) {
        this.schema = schema;
        this.nodes = nodes;
    }

    @Override
    public void iJoin(ManagementNodeInventory inv) {
        if (!schema.ready()) return;
        try {
            nodes.save(inv.getUuid(), inv.getHostName(), version);
        } catch (RuntimeException e) {
            logger.warn(String.format("plugin-aio: cannot record management node[uuid:%s] in %s", inv.getUuid(),
                    ManagementNodeStore.TABLE), e);
        }
    }

    @Override
    public void nodeLeft(ManagementNodeInventory inv) {
        if (!schema.ready()) return;
        try {
            nodes.delete(inv.getUuid());
        } catch (RuntimeException e) {
            logger.warn(String.format("plugin-aio: cannot remove management node[uuid:%s] from %s", inv.getUuid(),
                    ManagementNodeStore.TABLE), e);
        }
    }

    @Override
    public void nodeJoin(ManagementNodeInventory inv) {
        // the joining node writes its own row, if it runs the module
    }

    @Override
    public void iAmDead(ManagementNodeInventory inv) {
        // the other nodes' nodeLeft, or ZStack's deletion of this node's ManagementNodeVO row, removes the row
    }
}
