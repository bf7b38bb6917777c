package org.zstack.aio.zstack;

import org.zstack.header.identity.rbac.RBACDescription;
import org.zstack.header.volume.VolumeVO;

/**
 * Reading and querying io-mode decisions is allowed to whoever owns the volumes, as reading the volumes is; a host's
 * io facts, clearing the io modes remembered as refused on it, and the management nodes that run the module only to
 * admins, as hosts and management nodes are.
 */
public class RBACInfo implements RBACDescription {
    @Override
    public void permissions() {
        permissionBuilder()
                .name("aio-io-mode")
                .normalAPIs(APIGetVolumeIoModeDecisionMsg.class, APIQueryVolumeIoModeDecisionMsg.class)
                .targetResources(VolumeVO.class)
                .build();
        permissionBuilder()
                .name("aio-host-io-facts")
                .adminOnlyAPIs(APIGetHostIoFactsMsg.class, APIGetIoModeManagementNodesMsg.class,
                        APIClearRefusedIoModeMsg.class)
                .build();
        permissionBuilder()
                .name("aio-io-mode-benchmark")
                .adminOnlyAPIs(APIRunIoModeBenchmarkMsg.class, APIQueryIoModeBenchmarkMsg.class)
                .build();
    }

    @Override
    public void contributeToRoles() {
        roleContributorBuilder()
                .roleName("volume")
                .actionsByPermissionName("aio-io-mode")
                .build();
    }

    @Override
    public void roles() {
    }

    @Override
    public void globalReadableResources() {
    }
}
