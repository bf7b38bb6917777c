package org.zstack.aio.plugin;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class ConfigValueRuleTest {

    @Test
    void everyDeclaredValueIsAccepted() {
        for (IoModeConfig c : IoModeConfig.ALL) {
            for (String v : c.validValues()) assertThat(ConfigValueRule.refusal(c, v)).as("%s=%s", c, v).isNull();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {" threads", "native ", "\tio_uring", "auto\n"})
    void aValidValueWithWhiteSpaceAroundItIsRefusedAndNamedAsSuch(String v) {
        ConfigRefusal r = ConfigValueRule.refusal(IoModeConfig.IO_MODE, v);
        assertThat(r).isNotNull();
        assertThat(r.description()).contains("kvm/vm.ioMode").contains("white space around it");
        assertThat(r.whatToDo()).contains("'" + v.trim() + "'");
        assertThat(r.description()).doesNotContain("\t").doesNotContain("\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"fast", "THREADS", "Native", "", "io-uring", "threads;drop table"})
    void anythingElseIsRefusedWithTheValidValues(String v) {
        ConfigRefusal r = ConfigValueRule.refusal(IoModeConfig.IO_MODE, v);
        assertThat(r.description()).isEqualTo("'" + v + "' is not a valid value of kvm/vm.ioMode.");
        assertThat(r.whatToDo()).isEqualTo("Valid values (exact, lowercase, no spaces): threads, native, io_uring, auto.");
    }

    @Test
    void aValueLeftOutIsNamedAsSuchNotAsTheWordNull() {
        ConfigRefusal r = ConfigValueRule.refusal(IoModeConfig.ON_UNSATISFIED, null);
        assertThat(r.description()).isEqualTo("No value was given for kvm/vm.ioMode.onUnsatisfied.");
        assertThat(r.whatToDo()).isEqualTo("Send one of the valid values (exact, lowercase, no spaces): fallback, fail.");
        assertThat(ConfigValueRule.refusal(IoModeConfig.ON_UNSATISFIED, "null").description())
                .isEqualTo("'null' is not a valid value of kvm/vm.ioMode.onUnsatisfied.");
    }

    @Test
    void aHugeValueIsNotEchoedWhole() {
        String huge = "x".repeat(1_000_000);
        ConfigRefusal r = ConfigValueRule.refusal(IoModeConfig.ON_UNSATISFIED, huge);
        assertThat(r.sentence().length()).isLessThan(300);
        assertThat(r.description()).contains("1000000 characters");
    }

    @Property
    void onlyTheDeclaredValuesPass(@ForAll String v) {
        assertThat(ConfigValueRule.refusal(IoModeConfig.ALLOW_FALLOC, v) == null)
                .isEqualTo(v.equals("true") || v.equals("false"));
    }
}
