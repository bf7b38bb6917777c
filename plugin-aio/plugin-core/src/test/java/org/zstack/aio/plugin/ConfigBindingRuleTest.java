package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ConfigBindingRuleTest {

    @Test
    void eachConfigMayBeSetWhereItsTableBindsIt() {
        assertThat(ConfigBindingRule.refusal(IoModeConfig.IO_MODE, "VolumeVO")).isNull();
        assertThat(ConfigBindingRule.refusal(IoModeConfig.IO_MODE, "PrimaryStorageVO")).isNull();
        assertThat(ConfigBindingRule.refusal(IoModeConfig.ALLOW_FALLOC, "PrimaryStorageVO")).isNull();
    }

    @Test
    void elsewhereTheRefusalSaysWhereItMayBeSet() {
        ConfigRefusal r = ConfigBindingRule.refusal(IoModeConfig.ALLOW_FALLOC, "VolumeVO");
        assertThat(r.description()).isEqualTo("kvm/vm.ioMode.native.allowFalloc cannot be set on a VolumeVO.");
        assertThat(r.whatToDo()).isEqualTo("It can be set on: PrimaryStorageVO.");
        r = ConfigBindingRule.refusal(IoModeConfig.IO_MODE, "HostVO");
        assertThat(r.sentence()).isEqualTo("kvm/vm.ioMode cannot be set on a HostVO. It can be set on: VolumeVO, PrimaryStorageVO.");
    }

    @Test
    void aGlobalOnlyConfigNamesTheGlobalConfigApi() {
        ConfigRefusal r = ConfigBindingRule.refusal(IoModeConfig.ON_UNSATISFIED, "VolumeVO");
        assertThat(r.description()).isEqualTo("kvm/vm.ioMode.onUnsatisfied cannot be set on a VolumeVO.");
        assertThat(r.whatToDo())
                .isEqualTo("It is a global config only: use PUT /v1/global-configurations/kvm/vm.ioMode.onUnsatisfied/actions.");
    }
}
