package org.zstack.aio.test.metrics;

import org.junit.jupiter.api.Test;
import org.zstack.aio.test.support.PrometheusText;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The test parser is strict: each thing Prometheus would reject is rejected here too. */
class PrometheusTextTest {

    static final String GOOD = """
            # HELP a_total things\\ndone
            # TYPE a_total counter
            a_total{k="v\\"x",j="1"} 3.0
            # TYPE h_seconds histogram
            h_seconds_bucket{le="0.1"} 1
            h_seconds_bucket{le="+Inf"} 2
            h_seconds_count 2
            h_seconds_sum 0.3
            # TYPE g gauge
            g NaN
            """;

    @Test
    void readsAValidExposition() {
        var f = PrometheusText.parse(GOOD);
        assertThat(f.get("a_total").value("a_total", Map.of("k", "v\"x"))).isEqualTo(3.0);
        assertThat(f.get("h_seconds").value("h_seconds_count", Map.of())).isEqualTo(2.0);
    }

    @Test
    void rejectsWhatPrometheusRejects() {
        for (String bad : new String[]{
                "# TYPE a counter\na{k=\"v\"} 1",                                   // no final newline
                "a 1\n",                                                            // sample before TYPE
                "# TYPE a counter\na{k=v} 1\n",                                     // unquoted label value
                "# TYPE a counter\na{k=\"\\t\"} 1\n",                               // bad escape
                "# TYPE a counter\na one\n",                                        // bad value
                "# TYPE a counter\na 1\na 2\n",                                     // duplicate sample
                "# TYPE a counter\n# TYPE b gauge\nb 1\n# TYPE a counter\n",        // family twice
                "# TYPE 1a counter\n",                                              // bad name
                "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_count 1\n",             // no +Inf
                "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_count 1\n", // not cumulative
                "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_count 3\n",          // +Inf != count
                "# TYPE a counter\na -1\n",                                         // negative counter
                "# TYPE a counter\nb 1\n",                                          // sample of another family
        }) {
            assertThatThrownBy(() -> PrometheusText.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
