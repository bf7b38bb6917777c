package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class QueryRuleTest {

    @Test
    void anUnknownFieldIsNamedWithTheFieldsThereAre() {
        ConfigRefusal r = QueryRule.unknownField("noSuchField", "condition", "VolumeIoModeDecision",
                Arrays.asList("effective", "requested"));
        assertThat(r.sentence()).isEqualTo("'noSuchField' in the condition is not a queryable field of VolumeIoModeDecision."
                                           + " Queryable fields: effective, requested.");
    }

    @Test
    void aHugeOrControlFieldIsQuotedShort() {
        String huge = "x\n".repeat(1000);
        assertThat(QueryRule.unknownField(huge, "sortBy", "E", Arrays.asList("a")).description())
                .contains("… (2000 characters)").doesNotContain("\n");
    }

    @Test
    void negativeNumbersAndUnmatchableValues() {
        assertThat(QueryRule.negative("limit", -1).sentence())
                .isEqualTo("query parameter 'limit' is -1, not a whole number from 0. Send e.g. limit=100.");
        assertThat(QueryRule.negative("start", -5).whatToDo()).isEqualTo("Send e.g. start=0.");
        assertThat(QueryRule.unmatchableValue("volumeUuid", "x' OR '1'='1").description())
                .isEqualTo("the value 'x' OR '1'='1' of the condition on 'volumeUuid' holds a ' or a \\, which ZStack's"
                           + " query language cannot match.");
    }
}
