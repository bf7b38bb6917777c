package org.zstack.aio.zstack;

import org.zstack.core.Platform;
import org.zstack.core.cloudbus.ResourceDestinationMaker;
import org.zstack.core.db.Q;
import org.zstack.core.thread.PeriodicTask;
import org.zstack.core.thread.ThreadFacade;
import org.zstack.header.Component;
import org.zstack.header.errorcode.ErrorCode;
import org.zstack.header.host.HostStatus;
import org.zstack.header.host.HostVO;
import org.zstack.header.host.HostVO_;
import org.zstack.header.storage.primary.PrimaryStorageClusterRefVO;
import org.zstack.header.storage.primary.PrimaryStorageClusterRefVO_;
import org.zstack.header.storage.primary.PrimaryStorageVO;
import org.zstack.header.storage.primary.PrimaryStorageVO_;
import org.zstack.kvm.KVMConstant;
import org.zstack.storage.primary.local.LocalStorageConstants;
import org.zstack.storage.primary.local.LocalStorageHostRefVO;
import org.zstack.storage.primary.local.LocalStorageHostRefVO_;
import org.zstack.storage.primary.nfs.NfsPrimaryStorageConstant;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The admin's schedule, kvm/vm.ioMode.benchmark.intervalHours (0, the default: never). Every 10 minutes, when it is
 * set, each management node benchmarks the connected KVM hosts it manages (ZStack's consistent hash of the host's
 * uuid), one storage per host at a time: a LocalStorage or NFS primary storage the host mounts that has no benchmark
 * newer than the interval, and was not tried within it (a benchmark that measured nothing is not retried sooner).
 */
public class BenchmarkSchedule implements Component {
    private static final CLogger logger = Utils.getLogger(BenchmarkSchedule.class);
    static final long CHECK_SECONDS = 600;
    private static final List<String> TYPES = Arrays.asList(LocalStorageConstants.LOCAL_STORAGE_TYPE,
            NfsPrimaryStorageConstant.NFS_PRIMARY_STORAGE_TYPE);

    private final ThreadFacade thdf;
    private final ResourceDestinationMaker destinations;
    private final BenchmarkRequests requests;
    private final BenchmarkStore store;
    private final Map<String, Long> tried = new ConcurrentHashMap<>();
    private final Set<String> busyHosts = ConcurrentHashMap.newKeySet();
    private Future<Void> task;

    public BenchmarkSchedule(ThreadFacade thdf, ResourceDestinationMaker destinations, BenchmarkRequests requests,
                             BenchmarkStore store) {
        this.thdf = thdf;
        this.destinations = destinations;
        this.requests = requests;
        this.store = store;
    }

    @Override
    public boolean start() {
        task = thdf.submitPeriodicTask(new PeriodicTask() {
            @Override
            public TimeUnit getTimeUnit() {
                return TimeUnit.SECONDS;
            }

            @Override
            public long getInterval() {
                return CHECK_SECONDS;
            }

            @Override
            public String getName() {
                return "plugin-aio-io-mode-benchmark-schedule";
            }

            @Override
            public void run() {
                try {
                    checkDue();
                } catch (RuntimeException e) {
                    logger.warn("plugin-aio: the io-mode benchmark schedule failed this time: " + e, e);
                }
            }
        }, CHECK_SECONDS);
        return true;
    }

    @Override
    public boolean stop() {
        if (task != null) task.cancel(true);
        return true;
    }

    /** One check: starts the benchmarks that are due; how many it started (0 when the config is 0). */
    public int checkDue() {
        int hours = AioIoModeGlobalConfig.BENCHMARK_INTERVAL_HOURS.value(Integer.class);
        if (hours <= 0) return 0;
        long now = System.currentTimeMillis();
        long interval = TimeUnit.HOURS.toMillis(hours);
        int started = 0;
        List<HostVO> hosts = Q.New(HostVO.class).eq(HostVO_.hypervisorType, KVMConstant.KVM_HYPERVISOR_TYPE)
                .eq(HostVO_.status, HostStatus.Connected).list();
        for (HostVO h : hosts) {
            if (!destinations.isManagedByUs(h.getUuid()) || busyHosts.contains(h.getUuid())) continue;
            Set<String> fresh = store.takenWithin(h.getUuid(), hours);
            for (String ps : storagesOf(h)) {
                String key = h.getUuid() + "/" + ps;
                Long last = tried.get(key);
                if (fresh.contains(ps) || (last != null && now - last < interval)) continue;
                tried.put(key, now);
                start(h.getUuid(), ps);
                started++;
                break; // one storage per host at a time
            }
        }
        return started;
    }

    private void start(String hostUuid, String primaryStorageUuid) {
        APIRunIoModeBenchmarkMsg msg = new APIRunIoModeBenchmarkMsg();
        msg.setHostUuid(hostUuid);
        msg.setPrimaryStorageUuid(primaryStorageUuid);
        String tag = Platform.getUuid();
        busyHosts.add(hostUuid);
        logger.info("plugin-aio: scheduled io-mode benchmark " + tag + " of primary storage " + primaryStorageUuid
                + " on host " + hostUuid + " (kvm/vm.ioMode.benchmark.intervalHours)");
        requests.run(msg, tag, tag, new BenchmarkRequests.Answer() {
            @Override
            public void success(APIRunIoModeBenchmarkEvent event) {
                busyHosts.remove(hostUuid);
            }

            @Override
            public void fail(ErrorCode error) {
                busyHosts.remove(hostUuid);
                logger.warn("plugin-aio: scheduled io-mode benchmark " + tag + " measured nothing: " + error.getReadableDetails());
            }
        });
    }

    /** The LocalStorage and NFS primary storages the host mounts (BenchmarkTargets checks the rest). */
    private static List<String> storagesOf(HostVO h) {
        Set<String> uuids = new LinkedHashSet<>(Q.New(LocalStorageHostRefVO.class).select(LocalStorageHostRefVO_.primaryStorageUuid)
                .eq(LocalStorageHostRefVO_.hostUuid, h.getUuid()).listValues());
        uuids.addAll(Q.New(PrimaryStorageClusterRefVO.class).select(PrimaryStorageClusterRefVO_.primaryStorageUuid)
                .eq(PrimaryStorageClusterRefVO_.clusterUuid, h.getClusterUuid()).listValues());
        if (uuids.isEmpty()) return new ArrayList<>();
        return Q.New(PrimaryStorageVO.class).select(PrimaryStorageVO_.uuid).in(PrimaryStorageVO_.uuid, uuids)
                .in(PrimaryStorageVO_.type, TYPES).listValues();
    }
}
