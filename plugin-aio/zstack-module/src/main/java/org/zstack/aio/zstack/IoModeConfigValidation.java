package org.zstack.aio.zstack;

import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.CheckResult;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.core.config.GlobalConfig;
import org.zstack.core.config.GlobalConfigException;
import org.zstack.core.db.Q;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.header.volume.VolumeVO;
import org.zstack.header.volume.VolumeVO_;
import org.zstack.kvm.KVMGlobalConfig;
import org.zstack.resourceconfig.ResourceConfigFacade;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Validation of the io-mode configs, answered by ZStack as its own config errors (UpdateGlobalConfig and
 * UpdateResourceConfig). Valid values come from the decision core's types. A volume's own vm.ioMode=native is refused
 * when the volume's facts already rule native out (its cache mode, or a sparse image on file storage), instead of
 * being discovered at the next start.
 */
final class IoModeConfigValidation {

    private final IoModeDecider decider;
    private final VolumeFactsReader facts;
    private final ResourceConfigFacade rcf;

    IoModeConfigValidation(IoModeDecider decider, VolumeFactsReader facts, ResourceConfigFacade rcf) {
        this.decider = decider;
        this.facts = facts;
        this.rcf = rcf;
    }

    void install() {
        List<String> modes = new ArrayList<>();
        for (RequestedIoMode m : RequestedIoMode.values()) modes.add(m.wire());
        List<String> policies = new ArrayList<>();
        for (OnUnsatisfied p : OnUnsatisfied.values()) policies.add(p.wire());
        oneOf(AioIoModeGlobalConfig.IO_MODE, modes);
        oneOf(AioIoModeGlobalConfig.ON_UNSATISFIED, policies);
        // allowFalloc is a java.lang.Boolean config: ZStack itself refuses anything but true and false
        rcf.getResourceConfig(AioIoModeGlobalConfig.IO_MODE.getIdentity())
                .installValidatorExtension((resourceUuid, oldValue, newValue) -> refuseNativeRuledOutByVolume(resourceUuid, newValue));
    }

    private static void oneOf(GlobalConfig config, List<String> valid) {
        config.installValidateExtension((category, name, oldValue, newValue) -> {
            if (!valid.contains(newValue)) {
                throw new GlobalConfigException(String.format("%s/%s cannot be '%s'; use one of %s",
                        category, name, newValue, valid));
            }
        });
    }

    private void refuseNativeRuledOutByVolume(String resourceUuid, String newValue) {
        if (!RequestedIoMode.NATIVE.wire().equals(newValue)) return;
        VolumeVO vol = Q.New(VolumeVO.class).eq(VolumeVO_.uuid, resourceUuid).find();
        if (vol == null) return; // a primary storage: its volumes differ, each is checked at start
        String cache = rcf.getResourceConfigValue(KVMGlobalConfig.LIBVIRT_CACHE_MODE, resourceUuid, String.class);
        VolumeFacts v = facts.volumes(Collections.singletonList(VolumeInventory.valueOf(vol)),
                Collections.singletonMap(resourceUuid, cache)).get(resourceUuid);
        boolean allowFalloc = rcf.getResourceConfigValue(AioIoModeGlobalConfig.ALLOW_FALLOC, resourceUuid, Boolean.class);
        // native's checks need the volume's facts only (no host): cache mode and, on file storage, a non-sparse image
        CheckResult r = decider.check(IoMode.NATIVE, v, null, new DecisionPolicy(OnUnsatisfied.FALLBACK, allowFalloc));
        if (!r.passed()) {
            Check failed = r.firstFailure();
            throw new GlobalConfigException(String.format("vm.ioMode native cannot be set on volume[uuid:%s] because check"
                    + " %s failed: %s", resourceUuid, failed.check(), failed.message()));
        }
    }

}
