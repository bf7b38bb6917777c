package org.zstack.aio.server.api;

import io.swagger.v3.oas.annotations.Hidden;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import javax.sql.DataSource;
import java.sql.Connection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * /health: 200 only when the server can serve logins — the database answers and the boot (admin account, first
 * reconciliation with the hosts) is done; else 503 saying which. /health/live: the process answers at all.
 */
@RestController
@Hidden
public class HealthController {

    private static final int DB_CHECK_SECONDS = 2;

    private final DataSource dataSource;
    private final Readiness readiness;
    /** Its own threads: a check stuck on a dead database must not hold a shared pool. */
    private final ExecutorService checks = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "health-db-check");
        t.setDaemon(true);
        return t;
    });

    public HealthController(DataSource dataSource, Readiness readiness) {
        this.dataSource = dataSource;
        this.readiness = readiness;
    }

    @GetMapping("/health")
    public ResponseEntity<Map<String, String>> health() {
        Map<String, String> body = new LinkedHashMap<>();
        String db = database();
        body.put("database", db == null ? "UP" : "DOWN: " + db);
        body.put("ready", readiness.ready() ? "true" : "false: waiting for " + readiness.waitingFor());
        boolean up = db == null && readiness.ready();
        body.put("status", up ? "UP" : "DOWN");
        return ResponseEntity.status(up ? 200 : 503).body(body);
    }

    @GetMapping("/health/live")
    public Map<String, String> live() {
        return Map.of("status", "UP");
    }

    /** null when a connection answers a query within the bound; else why not. */
    private String database() {
        CompletableFuture<String> check = CompletableFuture.supplyAsync(() -> {
            try (Connection c = dataSource.getConnection()) {
                return c.isValid(DB_CHECK_SECONDS) ? null : "the connection is not valid";
            } catch (Exception e) {
                return e.getMessage();
            }
        }, checks);
        try {
            return check.get(DB_CHECK_SECONDS + 1, TimeUnit.SECONDS);
        } catch (Exception e) {
            check.cancel(true);
            return "no answer within " + (DB_CHECK_SECONDS + 1) + " s";
        }
    }
}
