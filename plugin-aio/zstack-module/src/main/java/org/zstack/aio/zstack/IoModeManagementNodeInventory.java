package org.zstack.aio.zstack;

import org.zstack.aio.plugin.IsoDates;

/**
 * One ZStack management node (ManagementNodeVO) and whether it runs plugin-aio (a row in AioManagementNodeVO): the
 * module's version and the ZStack it was built for, and when the module last started there; null when it does not.
 */
public class IoModeManagementNodeInventory {
    private String managementNodeUuid;
    private String hostName;
    private boolean runsModule;
    private String moduleVersion;
    private String builtForZStack;
    private String moduleStartedAt;

    static IoModeManagementNodeInventory of(ManagementNodeStore.Node n) {
        IoModeManagementNodeInventory inv = new IoModeManagementNodeInventory();
        inv.managementNodeUuid = n.uuid;
        inv.hostName = n.hostName;
        inv.runsModule = n.moduleVersion != null;
        inv.moduleVersion = n.moduleVersion;
        inv.builtForZStack = n.builtForZStack;
        inv.moduleStartedAt = n.since == null ? null : IsoDates.format(n.since.getTime());
        return inv;
    }

    public String getManagementNodeUuid() { return managementNodeUuid; }
    public void setManagementNodeUuid(String v) { managementNodeUuid = v; }
    public String getHostName() { return hostName; }
    public void setHostName(String v) { hostName = v; }
    public boolean isRunsModule() { return runsModule; }
    public void setRunsModule(boolean v) { runsModule = v; }
    public String getModuleVersion() { return moduleVersion; }
    public void setModuleVersion(String v) { moduleVersion = v; }
    public String getBuiltForZStack() { return builtForZStack; }
    public void setBuiltForZStack(String v) { builtForZStack = v; }
    public String getModuleStartedAt() { return moduleStartedAt; }
    public void setModuleStartedAt(String v) { moduleStartedAt = v; }
}
