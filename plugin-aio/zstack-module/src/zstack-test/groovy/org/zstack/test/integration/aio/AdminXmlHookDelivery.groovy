package org.zstack.test.integration.aio

import org.zstack.core.db.Q
import org.zstack.header.errorcode.ErrorCode
import org.zstack.header.vm.VmInstanceSpec
import org.zstack.kvm.KVMAgentCommands
import org.zstack.kvm.KVMHostInventory
import org.zstack.kvm.KVMStartVmExtensionPoint
import org.zstack.kvm.xmlhook.XmlHookVO
import org.zstack.kvm.xmlhook.XmlHookVO_
import org.zstack.kvm.xmlhook.XmlHookVmInstanceRefVO
import org.zstack.kvm.xmlhook.XmlHookVmInstanceRefVO_

/**
 * Stands in for the part of ZStack that is not open source: it delivers the XML hook an admin created
 * (CreateVmUserDefinedXmlHookScript) and bound to a VM (XmlHookVmInstanceRefVO) as the StartVmCmd's
 * userDefinedXmlHookScript addon, base64 as the agent expects it. Declared with a higher order than plugin-aio's
 * extension, so the addon is there when the module runs, as it would be on a node that delivers admin hooks.
 */
class AdminXmlHookDelivery implements KVMStartVmExtensionPoint {
    @Override
    void beforeStartVmOnKvm(KVMHostInventory host, VmInstanceSpec spec, KVMAgentCommands.StartVmCmd cmd) {
        String hookUuid = Q.New(XmlHookVmInstanceRefVO.class).select(XmlHookVmInstanceRefVO_.xmlHookUuid)
                .eq(XmlHookVmInstanceRefVO_.vmInstanceUuid, spec.vmInventory.uuid).findValue()
        if (hookUuid == null) {
            return
        }
        String script = Q.New(XmlHookVO.class).select(XmlHookVO_.hookScript).eq(XmlHookVO_.uuid, hookUuid).findValue()
        cmd.addons["userDefinedXmlHookScript"] = Base64.encoder.encodeToString(script.getBytes("UTF-8"))
    }

    @Override
    void startVmOnKvmSuccess(KVMHostInventory host, VmInstanceSpec spec) {
    }

    @Override
    void startVmOnKvmFailed(KVMHostInventory host, VmInstanceSpec spec, ErrorCode err) {
    }
}
