package org.zstack.aio.zstack;

import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.HostScript;
import org.zstack.aio.plugin.IsoDates;
import org.zstack.aio.plugin.MeasureSettings;
import org.zstack.aio.plugin.cache.IoFactsChange;
import org.zstack.aio.plugin.cache.IoFactsChanges;
import org.zstack.aio.plugin.workload.HostSample;
import org.zstack.aio.plugin.workload.SampleFold;
import org.zstack.core.cloudbus.ResourceDestinationMaker;
import org.zstack.core.config.GlobalConfigException;
import org.zstack.core.db.Q;
import org.zstack.core.thread.PeriodicTask;
import org.zstack.core.thread.ThreadFacade;
import org.zstack.header.Component;
import org.zstack.header.host.HostStatus;
import org.zstack.header.host.HostVO;
import org.zstack.header.host.HostVO_;
import org.zstack.kvm.KVMConstant;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Workload sampling: every kvm/vm.ioMode.workload.sampleInterval seconds (0: off), each connected KVM host this
 * management node owns (ZStack's ResourceDestinationMaker, the hash ring that routes the host's messages) gets one
 * short call through {@link HostShell}: conf/aio/host-sample.sh, libvirt's {@code virsh list} and
 * {@code virsh domstats --block}, each bounded (measure.properties' workload.callSeconds). What it printed is folded
 * with the core's fold ({@link SampleFold}, the standalone server's) into each volume's time-decayed state and
 * profile, written in one statement per host ({@link WorkloadStore}), and the changed profiles are published
 * ({@link IoFactsChanges}) so that every node's next start reads them again.
 */
public class AioWorkloadSampler implements Component {
    private static final CLogger logger = Utils.getLogger(AioWorkloadSampler.class);

    static final String SCRIPT = "conf/aio/host-sample.sh";
    /** the interval's valid values besides 0 start here, as measure.properties' workload.intervalSeconds */
    static final int MIN_INTERVAL = 10;

    private final ThreadFacade threads;
    private final ResourceDestinationMaker destinations;
    private final HostShell shell;
    private final WorkloadStore store;
    private final IoFactsChanges changes;
    private final AioSchema schema;
    private final MeasureSettings settings = MeasureSettings.load(AioWorkloadSampler.class.getClassLoader());
    private final HostScript script = HostScript.load(SCRIPT, AioWorkloadSampler.class.getClassLoader());
    private Future<Void> running;

    public AioWorkloadSampler(ThreadFacade threads, ResourceDestinationMaker destinations, HostShell shell,
                              WorkloadStore store, IoFactsChanges changes, AioSchema schema) {
        this.threads = threads;
        this.destinations = destinations;
        this.shell = shell;
        this.store = store;
        this.changes = changes;
        this.schema = schema;
    }

    @Override
    public boolean start() {
        AioIoModeGlobalConfig.WORKLOAD_SAMPLE_INTERVAL.installValidateExtension((category, name, oldValue, newValue) -> {
            int s = Integer.parseInt(newValue.trim()); // ZStack has checked it is a number from 0 to 86400
            if (s > 0 && s < MIN_INTERVAL) {
                throw new GlobalConfigException(String.format("%s/%s must be 0 (sampling off) or from %d to 86400 seconds,"
                        + " not %d: a shorter interval would call every host more often than its sample is worth.",
                        category, name, MIN_INTERVAL, s));
            }
        });
        AioIoModeGlobalConfig.WORKLOAD_SAMPLE_INTERVAL.installUpdateExtension((oldConfig, newConfig) -> schedule());
        schedule();
        return true;
    }

    @Override
    public synchronized boolean stop() {
        if (running != null) running.cancel(false);
        running = null;
        return true;
    }

    /** (Re)starts the periodic task at the configured interval; none at 0. */
    synchronized void schedule() {
        stop();
        final int seconds = AioIoModeGlobalConfig.WORKLOAD_SAMPLE_INTERVAL.value(Integer.class);
        if (seconds <= 0) {
            logger.info("plugin-aio: workload sampling is off (kvm/vm.ioMode.workload.sampleInterval = 0)");
            return;
        }
        running = threads.submitPeriodicTask(new PeriodicTask() {
            @Override
            public TimeUnit getTimeUnit() { return TimeUnit.SECONDS; }

            @Override
            public long getInterval() { return seconds; }

            @Override
            public String getName() { return "aio-workload-sample"; }

            @Override
            public void run() {
                try {
                    sampleNow(0);
                } catch (RuntimeException e) {
                    // never let the task die: ZStack cancels a periodic task that throws
                    logger.warn("plugin-aio: the workload sample of this round failed", e);
                }
            }
        }, seconds);
    }

    /**
     * Samples every connected KVM host this node owns, now; waits up to {@code waitMillis} for their answers
     * (0: returns at once, each host's answer is handled when it comes). Returns how many hosts were asked.
     */
    public int sampleNow(long waitMillis) {
        if (!schema.ready()) return 0;
        List<String> hosts = new ArrayList<>();
        for (String h : Q.New(HostVO.class).select(HostVO_.uuid).eq(HostVO_.hypervisorType, KVMConstant.KVM_HYPERVISOR_TYPE)
                .eq(HostVO_.status, HostStatus.Connected).<String>listValues()) {
            if (destinations.isManagedByUs(h)) hosts.add(h);
        }
        final CountDownLatch answered = new CountDownLatch(hosts.size());
        String command = script.command(Integer.toString(settings.callSeconds()));
        for (final String h : hosts) {
            shell.run(h, command, out -> {
                try {
                    fold(h, out);
                } catch (RuntimeException e) {
                    logger.warn(String.format("plugin-aio: cannot fold the workload sample of host[uuid:%s]", h), e);
                } finally {
                    answered.countDown();
                }
            });
        }
        if (waitMillis > 0) {
            try {
                answered.await(waitMillis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return hosts.size();
    }

    /** One host's answer: folded into its volumes' states, stored in one statement, the new profiles published. */
    void fold(String hostUuid, HostShell.Output out) {
        if (!out.ok()) {
            logger.warn(String.format("plugin-aio: the workload sample of host[uuid:%s] failed: %s", hostUuid, out.failure));
            return;
        }
        HostSample sample = HostSample.parse(out.stdout);
        if (sample.failure() != null) {
            logger.warn(String.format("plugin-aio: host[uuid:%s] gave no workload sample: %s", hostUuid, sample.failure()));
            return;
        }
        List<String> vms = new ArrayList<>();
        for (HostSample.Domain d : sample.domains()) vms.add(d.name());
        WorkloadStore.Running r = store.running(vms);
        SampleFold f = SampleFold.fold(hostUuid, sample, SampleFold.byPathOrUuid(r.volumeByPath), r.states,
                settings.halfLifeSeconds());
        for (String s : f.skipped()) logger.debug("plugin-aio: workload sample of host[uuid:" + hostUuid + "]: " + s);
        Map<String, WorkloadProfile> profiles = f.profiles(IsoDates.format(sample.atMillis()));
        store.save(f.states(), profiles, sample.atMillis());
        if (!profiles.isEmpty()) changes.publish(IoFactsChange.workload(profiles.keySet()));
    }
}
