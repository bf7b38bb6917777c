package org.zstack.aio.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import jakarta.persistence.EntityManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * {@code aio_io_benchmark_age_seconds{host,primary_storage}}: how old each host × primary storage io benchmark is
 * (auto ranks modes by it), read in one query at each scrape; a deleted benchmark's series disappears.
 */
@Component
public class BenchmarkAgeGauges {

    private final EntityManager em;
    private final MultiGauge ages;

    public BenchmarkAgeGauges(EntityManager em, MeterRegistry registry) {
        this.em = em;
        this.ages = MultiGauge.builder("aio.io.benchmark.age").baseUnit("seconds")
                .description("age of the latest io benchmark of each host x primary storage").register(registry);
    }

    @Transactional(readOnly = true)
    public void refresh() {
        List<Object[]> rows = em.createQuery("select b.hostUuid, b.primaryStorageUuid, b.takenAt from HostIoBenchmarkVO b",
                Object[].class).getResultList();
        LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC);
        ages.register(rows.stream().map(r -> MultiGauge.Row.of(Tags.of("host", (String) r[0], "primary_storage", (String) r[1]),
                Math.max(0, Duration.between((LocalDateTime) r[2], now).toMillis() / 1000.0))).toList(), true);
    }
}
