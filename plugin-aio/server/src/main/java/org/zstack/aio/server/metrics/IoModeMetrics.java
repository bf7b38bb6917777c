package org.zstack.aio.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.stereotype.Component;
import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.decision.IoModeDecision;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The plugin's own meters (docs/contract.md, "Metrics and audit"), named so that Prometheus shows them as
 * {@code aio_io_mode_decisions_total{effective,source}}, {@code aio_io_mode_fallbacks_total{check}},
 * {@code aio_io_mode_refusals_total{check}}, {@code aio_vm_start_seconds} and {@code aio_agent_call_seconds{path}}.
 * Decisions are counted when they are applied (VM start, hot-plug), not when previewed.
 * <p>Every series whose labels are known in advance exists at 0 from the first scrape (issue 29): a counter that
 * appears only at its first increment is "no data" to a dashboard or alert, not 0, and {@code increase()} misses the
 * first count. So each effective mode × config source, each check name the ioModes can write, and the fixed outcomes
 * of the timers are registered at boot. Per-path agent calls and per-storage benchmark ages appear with their first
 * value (their label values are open-ended).
 */
@Component
public class IoModeMetrics {

    private static final String DECISIONS = "aio.io.mode.decisions";
    private static final String FALLBACKS = "aio.io.mode.fallbacks";
    private static final String REFUSALS = "aio.io.mode.refusals";
    private static final String WORKLOAD_SAMPLES = "aio.workload.samples";
    private static final List<String> OUTCOMES = List.of("success", "failure");
    private static final List<String> MIGRATION_KINDS = List.of("live", "cold");

    private final MeterRegistry registry;
    private final Map<CounterKey, Counter> counters = new ConcurrentHashMap<>();

    public IoModeMetrics(MeterRegistry registry, DiskIoModes ioModes) {
        this.registry = registry;
        List<String> effective = new ArrayList<>();
        for (IoMode m : IoMode.values()) effective.add(m.wire());
        effective.add(IoModeDecision.NOT_APPLICABLE);
        for (String e : effective) {
            for (ConfigSource source : ConfigSource.values()) decisions(e, source.wire());
        }
        for (String check : ioModes.checkNames()) {
            fallbacks(check);
            refusals(check);
        }
        workloadSamples();
        for (String outcome : OUTCOMES) {
            vmStartTimer(outcome);
            for (String kind : MIGRATION_KINDS) vmMigrationTimer(kind, outcome);
        }
        trackerRoundTimer();
        workloadSampleTimer();
    }

    /** Applied decisions: one count per disk by effective mode and config source; a fallback also by its check. */
    public void applied(Collection<IoModeDecision> decisions) {
        for (IoModeDecision d : decisions) {
            decisions(d.effectiveWire(), d.source().wire()).increment();
            Check cause = fallbackCause(d);
            if (cause != null) fallbacks(cause.check()).increment();
        }
    }

    /** A start refused by policy (onUnsatisfied = fail): one count per refused disk, by its failed check. */
    public void refused(Collection<IoModeDecision> decisions) {
        for (IoModeDecision d : decisions) {
            Check failed = d.firstFailure();
            String check = failed == null ? "unknown" : failed.check();
            refusals(check).increment();
        }
    }

    public void vmStart(Duration took, boolean succeeded) {
        vmStartTimer(outcome(succeeded)).record(took);
    }

    /** A VM migration through the API ({@code kind} live or cold), from request to stored decisions. */
    public void vmMigration(String kind, Duration took, boolean succeeded) {
        vmMigrationTimer(kind, outcome(succeeded)).record(took);
    }

    /**
     * One host round of the tracker (ping, event subscription, domain sync): a change outside the platform is seen
     * within host/ping.interval plus this (pushed events are seen at once), so this is the tracker's lag.
     */
    public void trackerRound(Duration took) {
        trackerRoundTimer().record(took);
    }

    /**
     * One host's workload sample: the disks whose counters came back, and the time to record them (the agent's
     * libvirt call is inside aio_agent_call_seconds{path="/vm/list"}).
     */
    public void workloadSample(int disks, Duration took) {
        workloadSamples().increment(disks);
        workloadSampleTimer().record(took);
    }

    public void agentCall(String path, Duration took, boolean succeeded) {
        Timer.builder("aio.agent.call").description("calls from the management server to KVM agents, by agent path")
                .tag("path", path).tag("outcome", succeeded ? "success" : "failure").publishPercentileHistogram()
                .register(registry).record(took);
    }

    /** The first failed check of the requested mode, when the effective mode is not the requested one. */
    static Check fallbackCause(IoModeDecision d) {
        return d.fellBack() ? d.firstFailure(d.requested().mode()) : null;
    }

    // ---- each meter declared once, for registering at boot and for counting ----

    private Counter decisions(String effective, String source) {
        return counter(DECISIONS, "decisions applied at VM start or hot-plug, by effective mode and config source",
                "effective", effective, "source", source);
    }

    private Counter fallbacks(String check) {
        return counter(FALLBACKS, "applied decisions that fell back from the requested mode, by the failed check",
                "check", check);
    }

    private Counter refusals(String check) {
        return counter(REFUSALS, "disks whose VM start was refused because the requested mode failed a check",
                "check", check);
    }

    private Counter workloadSamples() {
        return counter(WORKLOAD_SAMPLES, "disk block-counter samples recorded into the volumes' observed workload");
    }

    private Timer vmStartTimer(String outcome) {
        return Timer.builder("aio.vm.start").description("VM start through the API, from request to stored decisions")
                .tag("outcome", outcome).publishPercentileHistogram().register(registry);
    }

    private Timer vmMigrationTimer(String kind, String outcome) {
        return Timer.builder("aio.vm.migration").description("VM migration through the API, from request to stored decisions")
                .tag("kind", kind).tag("outcome", outcome).publishPercentileHistogram().register(registry);
    }

    private Timer trackerRoundTimer() {
        return Timer.builder("aio.tracker.round").description("one host round of the state tracker: ping and domain sync")
                .publishPercentileHistogram().register(registry);
    }

    private Timer workloadSampleTimer() {
        return Timer.builder("aio.workload.sample").description("recording one host's block counters into the volumes' workload")
                .register(registry);
    }

    private static String outcome(boolean succeeded) {
        return succeeded ? "success" : "failure";
    }

    private Counter counter(String name, String description, String... tags) {
        // a start counts every disk: looking the meter up by name and tags here spares the builder and the registry's
        // id hashing per disk (the registry stays the owner; this only remembers what it answered)
        return counters.computeIfAbsent(new CounterKey(name, List.of(tags)),
                k -> Counter.builder(name).description(description).tags(tags).register(registry));
    }

    private record CounterKey(String name, List<String> tags) {
    }
}
