package org.zstack.aio.test.metrics;

import org.junit.jupiter.api.Test;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.rules.IoModeRulesLoader;
import org.zstack.aio.test.support.PrometheusText;
import org.zstack.aio.test.support.PrometheusText.Family;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.TestDatabase;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 29: a fresh server's first scrape already holds every plugin series whose labels are known, at 0. Before,
 * {@code aio_io_mode_fallbacks_total} (and the other counters) appeared only at the first fallback, so a dashboard or
 * an alert on it saw "no data" rather than 0.
 */
class MetricsFirstScrapeTest {

    static final String TOKEN = "metrics-token-" + Long.toHexString(System.nanoTime());

    /** Dashboard series whose label values are open-ended (an agent path, a host × storage): they appear with their first value. */
    static final Set<String> APPEAR_WITH_THEIR_FIRST_VALUE = Set.of("aio_agent_call_seconds", "aio_io_benchmark_age_seconds");

    @Test
    void everyKnownSeriesIsThereAtZeroOnTheFirstScrape() throws Exception {
        try (TestDatabase db = TestDatabase.h2();
             RunningServer server = RunningServer.start(db, Map.of("aio.embedded-agent", "false", "aio.metrics-token", TOKEN))) {
            Map<String, Family> m = scrape(server);

            Family decisions = m.get("aio_io_mode_decisions_total");
            assertThat(decisions).as("aio_io_mode_decisions_total on the first scrape").isNotNull();
            for (String effective : new String[] {"threads", "native", "io_uring", "not-applicable"}) {
                for (String source : new String[] {"VolumeVO", "PrimaryStorageVO", "global", "StorageKindDefault"}) {
                    assertThat(decisions.value("aio_io_mode_decisions_total", Map.of("effective", effective, "source", source)))
                            .as(effective + " from " + source).isEqualTo(0.0);
                }
            }
            Set<String> checks = new TreeSet<>(new IoModeDecider(IoModeRulesLoader.load()).checkNames());
            assertThat(checks).contains("cache-mode", "non-sparse-image", "kernel-version", "io_uring-sysctl",
                    "qemu-io_uring-support", "accepted-at-start");
            for (String family : new String[] {"aio_io_mode_fallbacks_total", "aio_io_mode_refusals_total"}) {
                assertThat(m).as(family + " on the first scrape").containsKey(family);
                for (String check : checks) {
                    assertThat(m.get(family).value(family, Map.of("check", check))).as(family + " " + check).isEqualTo(0.0);
                }
            }
            assertThat(m.get("aio_workload_samples_total").value("aio_workload_samples_total", Map.of())).isEqualTo(0.0);
            assertThat(m.get("aio_vm_start_seconds").value("aio_vm_start_seconds_count", Map.of("outcome", "success"))).isEqualTo(0.0);
            assertThat(m.get("aio_vm_start_seconds").value("aio_vm_start_seconds_count", Map.of("outcome", "failure"))).isEqualTo(0.0);
            assertThat(m.get("aio_vm_migration_seconds").value("aio_vm_migration_seconds_count",
                    Map.of("kind", "live", "outcome", "success"))).isEqualTo(0.0);
            assertThat(m.get("aio_tracker_round_seconds").value("aio_tracker_round_seconds_count", Map.of())).isEqualTo(0.0);

            // every plugin series the shipped dashboard queries, by name
            for (String family : dashboardFamilies()) {
                if (APPEAR_WITH_THEIR_FIRST_VALUE.contains(family)) continue;
                assertThat(m).as("the dashboard's " + family + " on the first scrape").containsKey(family);
                // nothing happened yet: every sample, buckets, counts and sums included, is 0
                assertThat(m.get(family).samples()).as(family).isNotEmpty().allMatch(s -> s.value() == 0.0);
            }
        }
    }

    /** The aio_* families named in docs/grafana-dashboard.json ({@code _bucket} etc. folded into their family). */
    static Set<String> dashboardFamilies() throws Exception {
        Path dashboard = Path.of("..", "docs", "grafana-dashboard.json");
        Matcher names = Pattern.compile("aio_[a-z_]+").matcher(Files.readString(dashboard));
        Set<String> out = new TreeSet<>();
        while (names.find()) out.add(names.group().replaceAll("_(bucket|count|sum)$", ""));
        assertThat(out).as("families in " + dashboard).contains("aio_io_mode_fallbacks_total");
        return out;
    }

    static Map<String, Family> scrape(RunningServer server) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/metrics"))
                .header("Authorization", "Bearer " + TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return PrometheusText.parse(r.body());
    }
}
