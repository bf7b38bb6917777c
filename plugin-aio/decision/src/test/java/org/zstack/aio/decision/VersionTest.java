package org.zstack.aio.decision;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VersionTest {

    @ParameterizedTest
    @CsvSource({
            "6.18.44-fc-v669, 6.18.44",
            "7.2.0, 7.2.0",
            "5.1, 5.1",
            "5.4.0-150-generic, 5.4.0",
            "4.18.0-553.el8_10.x86_64, 4.18.0",
            "'  9.0.0  ', 9.0.0",
            "8.2.0+ds-1, 8.2.0",
            "6., 6",
            "10, 10"})
    void parsesTheLeadingDottedNumbers(String text, String expected) {
        assertThat(Version.parse(text).toString()).isEqualTo(expected);
    }

    @Test
    void kernelStringWithBuildSuffixComparesByNumbers() {
        Version k = Version.parse("6.18.44-fc-v669");
        assertThat(k.parts()).containsExactly(6, 18, 44);
        assertThat(k.atLeast(Version.parse("5.1"))).isTrue();
        assertThat(k.atLeast(Version.parse("6.18.45"))).isFalse();
        assertThat(k.compareTo(Version.parse("6.18.44"))).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"garbage", "", "   ", "v5.1", "-1", ".5", "1..2", "99999999999", "x.y.z"})
    void rejectsWhatIsNotAVersion(String text) {
        assertThatThrownBy(() -> Version.parse(text)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Version.parseOrNull(text)).isNull();
    }

    @Test
    void nullIsRejectedByParseAndNullByParseOrNull() {
        assertThatThrownBy(() -> Version.parse(null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Version.parseOrNull(null)).isNull();
    }

    @Test
    void errorMessageQuotesTheText() {
        assertThatThrownBy(() -> Version.parse("garbage")).hasMessageContaining("'garbage'");
    }

    @ParameterizedTest
    @CsvSource({
            "5.1, 5.0, 1", "5.0, 5.1, -1", "5.10, 5.9, 1", "10.0, 9.9, 1", "7.2.0, 7.2, 0", "7.2, 7.2.0.0, 0",
            "7.1.99, 7.2, -1", "6.3.0, 6.2.9, 1", "1.0.1, 1, 1"})
    void comparesNumberByNumberWithMissingPartsAsZero(String a, String b, int sign) {
        assertThat(Integer.signum(Version.parse(a).compareTo(Version.parse(b)))).isEqualTo(sign);
        assertThat(Integer.signum(Version.parse(b).compareTo(Version.parse(a)))).isEqualTo(-sign);
        assertThat(Version.parse(a).atLeast(Version.parse(b))).isEqualTo(sign >= 0);
    }

    @Test
    void equalVersionsHaveEqualHashCodesWhateverTheirLength() {
        Version a = Version.parse("7.2"), b = Version.parse("7.2.0"), c = Version.parse("7.2.0.0");
        assertThat(a).isEqualTo(b).isEqualTo(c).hasSameHashCodeAs(b).hasSameHashCodeAs(c);
        assertThat(a).isNotEqualTo(Version.parse("7.2.1"));
        assertThat(a).isNotEqualTo("7.2");
    }

    @Test
    void partsAreCopiedIn() {
        int[] raw = {5, 1};
        Version v = new Version(raw);
        raw[0] = 1;
        assertThat(v.toString()).isEqualTo("5.1");
    }
}
