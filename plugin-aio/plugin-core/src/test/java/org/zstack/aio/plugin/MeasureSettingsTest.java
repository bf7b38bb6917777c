package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** conf/aio/measure.properties as a platform loads it from its classpath, and what a bad file gets. */
class MeasureSettingsTest {

    @Test
    void theShippedFileLoadsFromTheClasspathAsFromTheRepository() {
        MeasureSettings s = MeasureSettings.load(getClass().getClassLoader());
        MeasureSettings file = ShippedFiles.measureSettings();
        assertThat(s.depths()).isEqualTo(file.depths()).containsExactly(1, 32);
        assertThat(s.budgetSeconds()).isEqualTo(file.budgetSeconds()).isEqualTo(60);
        assertThat(s.runSecondsMax()).isEqualTo(9);
        assertThat(s.scratchMiB()).isEqualTo(64);
        assertThat(s.reserveMiB()).isEqualTo(1024);
        assertThat(s.intervalSeconds()).isEqualTo(300);
        assertThat(s.halfLifeSeconds()).isEqualTo(3600);
        assertThat(s.callSeconds()).isEqualTo(5);
        // the ZStack module's config of the interval defaults to the file's value
        assertThat(IoModeConfig.WORKLOAD_SAMPLE_INTERVAL.defaultValue()).isEqualTo(Integer.toString(s.intervalSeconds()));
        // the scripts a platform sends travel with it
        assertThat(getClass().getClassLoader().getResource("conf/aio/host-bench.sh")).isNotNull();
        assertThat(getClass().getClassLoader().getResource("conf/aio/host-sample.sh")).isNotNull();
    }

    @Test
    void aMissingOrBadValueIsRefusedWithItsKeyAndFile() {
        Properties p = ShippedFiles.measureProperties();
        p.remove("workload.intervalSeconds");
        assertThatThrownBy(() -> MeasureSettings.of(p, "x.properties"))
                .hasMessage("x.properties: workload.intervalSeconds must be a value");
        assertThatThrownBy(() -> ShippedFiles.measureSettings("workload.intervalSeconds", "5"))
                .hasMessage("measure.properties: workload.intervalSeconds must be a whole number from 10 to 86400, not '5'");
        assertThatThrownBy(() -> ShippedFiles.measureSettings("bench.scratchMiB", "sixty"))
                .hasMessage("measure.properties: bench.scratchMiB must be a whole number from 1 to 65536, not 'sixty'");
        assertThatThrownBy(() -> MeasureSettings.load(new ClassLoader(null) { }))
                .hasMessage("conf/aio/measure.properties is not on the classpath");
    }
}
