package org.zstack.aio.server.iomode;

import org.junit.jupiter.api.Test;
import org.zstack.aio.server.config.ConfigDefinitions;
import org.zstack.aio.server.config.GlobalConfigDefinition;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** kvm.yaml is the one declaration of the io-mode configs; the server refuses to boot when it and the decision disagree. */
class IoModeConfigsTest {

    @Test
    void theShippedDeclarationsAreFound() {
        IoModeConfigs c = new IoModeConfigs(new ConfigDefinitions());
        assertThat(List.of(c.ioMode(), c.onUnsatisfied(), c.allowFalloc(), c.cacheMode()))
                .extracting(GlobalConfigDefinition::identity)
                .containsExactly("kvm/vm.ioMode", "kvm/vm.ioMode.onUnsatisfied", "kvm/vm.ioMode.native.allowFalloc", "kvm/vm.cacheMode");
        assertThat(c.ioMode().validValues()).containsExactly("threads", "native", "io_uring", "auto");
    }

    @Test
    void aMissingConfigStopsTheBootNamingIt() {
        List<GlobalConfigDefinition> defs = new ArrayList<>(new ConfigDefinitions().all());
        defs.removeIf(d -> d.name().equals("vm.cacheMode"));
        assertThatThrownBy(() -> new IoModeConfigs(new ConfigDefinitions(defs)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("kvm/vm.cacheMode");
    }

    @Test
    void validValuesTheDecisionDoesNotKnowStopTheBoot() {
        List<GlobalConfigDefinition> defs = new ArrayList<>();
        for (GlobalConfigDefinition d : new ConfigDefinitions().all()) {
            defs.add(!d.name().equals("vm.ioMode") ? d : new GlobalConfigDefinition(d.category(), d.name(), d.description(),
                    d.type(), d.defaultValue(), List.of("threads", "native", "io_uring", "auto", "aio"), d.bindResourceTypes()));
        }
        assertThatThrownBy(() -> new IoModeConfigs(new ConfigDefinitions(defs)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("kvm/vm.ioMode").hasMessageContaining("aio");
    }
}
