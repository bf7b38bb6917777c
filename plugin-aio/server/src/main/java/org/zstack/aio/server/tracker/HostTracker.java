package org.zstack.aio.server.tracker;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.beans.factory.annotation.Value;
import org.zstack.aio.server.metrics.IoModeMetrics;
import org.springframework.core.env.Environment;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.VmWatchCmd;
import org.zstack.aio.server.agent.AgentClient;
import org.zstack.aio.server.agent.AgentEndpoints;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Readiness;
import org.zstack.aio.server.config.GlobalConfigRepository;
import org.zstack.aio.server.host.HostService;
import org.zstack.aio.server.inventory.HostVO;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Pings every host's agent each {@code host/ping.interval} seconds (one node per host per round, claimed in the
 * database): no answer → Disconnected; an answer after that → facts probed again, Connected; every answer → a full
 * VM sync ({@link VmTracker}).
 */
@Component
public class HostTracker implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(HostTracker.class);
    static final Duration PING_TIMEOUT = Duration.ofSeconds(3);
    static final int DEFAULT_INTERVAL = 10;
    static final Duration UNREACHABLE_MAX_DEFERRAL = Duration.ofSeconds(60);
    static final Duration NOT_ENROLLED_DEFERRAL = Duration.ofMinutes(5);

    private final HostTrackingRepository hosts;
    private final GlobalConfigRepository configs;
    private final AgentClient agent;
    private final AgentEndpoints endpoints;
    private final HostService hostService;
    private final VmTracker vms;
    private final Readiness readiness;
    private final Set<String> busy = ConcurrentHashMap.newKeySet();
    private final ExecutorService pool = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "host-tracker");
        t.setDaemon(true);
        return t;
    });

    private final Environment env;
    private final IoModeMetrics metrics;
    private final String callbackUrl;
    /** false only where a test counts one operation's statements and background rounds would add theirs */
    private final boolean enabled;

    public HostTracker(HostTrackingRepository hosts, GlobalConfigRepository configs, AgentClient agent,
                       HostService hostService, VmTracker vms, Readiness readiness, Environment env,
                       @Value("${AIO_CALLBACK_URL:}") String callbackUrl,
                       @Value("${aio.tracker.enabled:true}") boolean enabled, IoModeMetrics metrics,
                       AgentEndpoints endpoints) {
        this.endpoints = endpoints;
        this.metrics = metrics;
        this.env = env;
        this.enabled = enabled;
        this.callbackUrl = callbackUrl.endsWith("/") ? callbackUrl.substring(0, callbackUrl.length() - 1) : callbackUrl;
        this.hosts = hosts;
        this.configs = configs;
        this.agent = agent;
        this.hostService = hostService;
        this.vms = vms;
        this.readiness = readiness;
    }

    @Scheduled(fixedDelay = 1000, initialDelay = 1000)
    void tick() {
        if (!enabled || !readiness.ready()) return; // the boot reconciliation runs first
        try {
            LocalDateTime now = LocalDateTime.now();
            LocalDateTime until = now.plusSeconds(interval()).minusNanos(200_000_000);
            for (HostVO h : hosts.findDue(now)) {
                if (busy.contains(h.getUuid()) || hosts.claimRound(h.getUuid(), now, until) == 0) continue;
                busy.add(h.getUuid());
                pool.execute(() -> {
                    long t0 = System.nanoTime();
                    try {
                        track(h);
                    } finally {
                        busy.remove(h.getUuid());
                        metrics.trackerRound(java.time.Duration.ofNanos(System.nanoTime() - t0));
                    }
                });
            }
        } catch (DataAccessException | TransactionException e) {
            log.warn("host tracking waits for the database: {}", e.getMostSpecificCause().getMessage());
        }
    }

    /** Boot: every host once, in this thread, before the server says it is ready. */
    public void trackAllNow() {
        for (HostVO h : hosts.findAll()) track(h);
    }

    void track(HostVO h) {
        try {
            boolean enrolled = endpoints.isEnrolled(h.getManagementIp(), h.getAgentPort());
            boolean answered = enrolled && ping(h);
            if (!answered) {
                if (hosts.setStatus(h.getUuid(), "Disconnected") == 1) {
                    log.info("host {} is Disconnected: its agent at {}:{} {}", h.getUuid(), h.getManagementIp(),
                            h.getAgentPort(), enrolled ? "did not answer a ping" : "is not enrolled with this server");
                }
                vms.hostUnreachable(h);
                LocalDateTime now = LocalDateTime.now();
                Duration next = deferral(enrolled, "Disconnected".equals(h.getStatus()) && h.getLastOpDate() != null
                        ? h.getLastOpDate() : now, now,
                        Duration.ofSeconds(interval()));
                if (next != null) hosts.deferRound(h.getUuid(), now.plus(next));
                return;
            }
            if (!"Connected".equals(h.getStatus())) {
                hostService.reprobe(h.getUuid());
                log.info("host {} is Connected again (facts probed again)", h.getUuid());
            }
            watchEvents(h);
            vms.sync(h);
        } catch (ApiException e) {
            log.warn("host {}: {}", h.getUuid(), e.description());
        } catch (DataAccessException | TransactionException e) {
            log.warn("host {}: the database did not answer: {}", h.getUuid(), e.getMostSpecificCause().getMessage());
        }
    }

    /** Events pushed by the agent make a sync of that host at once, instead of at its next round. */
    public void trackSoon(String hostUuid) {
        if (!enabled || !readiness.ready() || !busy.add(hostUuid)) return;
        try {
            pool.execute(() -> {
                try {
                    hosts.findById(hostUuid).ifPresent(this::track);
                } catch (DataAccessException | TransactionException e) {
                    // the pushed event is not lost: the host's next round syncs it from libvirt again
                    log.warn("host {}: the database did not answer: {}", hostUuid, e.getMostSpecificCause().getMessage());
                } finally {
                    busy.remove(hostUuid);
                }
            });
        } catch (RuntimeException e) {
            busy.remove(hostUuid); // the pool is closing with the server
        }
    }

    /** Renews this node's subscription to the agent's domain events (it lapses after a minute without renewal). */
    private void watchEvents(HostVO h) {
        String url = callbackUrl.isBlank() ? "http://127.0.0.1:" + env.getProperty("local.server.port", "8080") : callbackUrl;
        try {
            agent.call(h.getManagementIp(), h.getAgentPort(), AgentPaths.VM_WATCH,
                    new VmWatchCmd(url + AgentEventController.PATH), Map.class, PING_TIMEOUT);
        } catch (ApiException e) {
            // an agent without events (older, or libvirt without an event loop): the periodic sync is enough
            log.debug("host {} pushes no VM events: {}", h.getUuid(), e.description());
        }
    }

    private boolean ping(HostVO h) {
        try {
            agent.call(h.getManagementIp(), h.getAgentPort(), AgentPaths.PING, Map.of(), Map.class, PING_TIMEOUT);
            return true;
        } catch (ApiException e) {
            return false;
        }
    }

    /**
     * When a host that did not answer is asked again, or null for the next round as usual. A host this server cannot
     * call (not enrolled: only a reconnect with its token changes that, and the reconnect clears the deferral) is
     * asked again after {@link #NOT_ENROLLED_DEFERRAL}; one whose agent is down after half the time it has been down,
     * between one interval and {@link #UNREACHABLE_MAX_DEFERRAL}. So 1,000 hosts that cannot be reached cost a few
     * statements a second instead of a round each every interval, and a host back after a short outage is still seen
     * within an interval (a long one: within a minute).
     */
    static Duration deferral(boolean enrolled, LocalDateTime disconnectedSince, LocalDateTime now, Duration interval) {
        Duration next = enrolled ? Duration.between(disconnectedSince, now).dividedBy(2) : NOT_ENROLLED_DEFERRAL;
        if (next.compareTo(UNREACHABLE_MAX_DEFERRAL) > 0 && enrolled) next = UNREACHABLE_MAX_DEFERRAL;
        return next.compareTo(interval) > 0 ? next : null;
    }

    private int interval() {
        return configs.seconds("host", "ping.interval", DEFAULT_INTERVAL, false);
    }

    List<String> busyHosts() {
        return List.copyOf(busy);
    }

    @Override
    public void destroy() throws InterruptedException {
        pool.shutdownNow();
        // a round in progress must not outlive the database connections closed after this bean
        if (!pool.awaitTermination(5, TimeUnit.SECONDS)) log.warn("host tracking rounds still running at shutdown");
    }
}
