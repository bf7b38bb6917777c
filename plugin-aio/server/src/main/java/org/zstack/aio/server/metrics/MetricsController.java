package org.zstack.aio.server.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * GET /metrics in the Prometheus text format, for an admin session ({@code Authorization: OAuth <session>}) or a
 * scraper holding {@code Authorization: Bearer $AIO_METRICS_TOKEN} (no token configured: sessions only).
 */
@RestController
public class MetricsController {

    static final MediaType PROMETHEUS_TEXT = MediaType.parseMediaType("text/plain;version=0.0.4;charset=utf-8");

    private final PrometheusMeterRegistry registry;
    private final AccountService accounts;
    private final BenchmarkAgeGauges benchmarkAges;
    private final byte[] token;

    public MetricsController(PrometheusMeterRegistry registry, AccountService accounts, BenchmarkAgeGauges benchmarkAges,
                             @Value("${aio.metrics-token:}") String token) {
        this.registry = registry;
        this.accounts = accounts;
        this.benchmarkAges = benchmarkAges;
        this.token = token.isBlank() ? null : token.getBytes(StandardCharsets.UTF_8);
    }

    @GetMapping("/metrics")
    public ResponseEntity<String> scrape(@RequestHeader(value = "Authorization", required = false) String authorization) {
        authorize(authorization);
        benchmarkAges.refresh();
        return ResponseEntity.ok().contentType(PROMETHEUS_TEXT).body(registry.scrape());
    }

    private void authorize(String header) {
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            byte[] sent = header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
            if (token != null && MessageDigest.isEqual(token, sent)) return;
            throw new ApiException(ErrorCode.NOT_AUTHENTICATED, "the metrics token is wrong or no token is configured.",
                    "Send 'Authorization: Bearer <the server's AIO_METRICS_TOKEN>', or an admin session as 'OAuth <uuid>'.");
        }
        String session = header != null && header.regionMatches(true, 0, "OAuth ", 0, 6) ? header.substring(6).trim() : null;
        Caller caller = accounts.authenticate(session);
        AccountService.requireAdmin(caller, "read the metrics");
    }
}
