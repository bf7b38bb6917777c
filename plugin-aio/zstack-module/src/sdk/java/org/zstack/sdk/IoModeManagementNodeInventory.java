package org.zstack.sdk;

/** A ZStack management node and the plugin-aio version it runs (GetIoModeManagementNodesAction); null: not installed. */
public class IoModeManagementNodeInventory {
    public java.lang.String managementNodeUuid;
    public java.lang.String hostName;
    public boolean runsModule;
    public java.lang.String moduleVersion;
    public java.lang.String builtForZStack;
    public java.lang.String moduleStartedAt;
}
