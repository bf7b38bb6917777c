package org.zstack.aio.zstack;

import org.zstack.aio.plugin.MeasureSettings;
import org.zstack.aio.plugin.bench.BenchPlan;

/**
 * What one benchmark runs on, as checked (BenchmarkTargets): the KVM host, the primary storage it mounts and the
 * storage's directory on the host, the plan (modes x depths x read/write for the image kind, from the host's probed
 * facts and the settings) and the settings (measure.properties with the request's limits).
 */
final class BenchmarkTarget {
    final String hostUuid;
    final String primaryStorageUuid;
    final String path;
    final BenchPlan plan;
    final MeasureSettings settings;

    BenchmarkTarget(String hostUuid, String primaryStorageUuid, String path, BenchPlan plan, MeasureSettings settings) {
        this.hostUuid = hostUuid;
        this.primaryStorageUuid = primaryStorageUuid;
        this.path = path;
        this.plan = plan;
        this.settings = settings;
    }

    @Override
    public String toString() {
        return "host " + hostUuid + " x primary storage " + primaryStorageUuid + " (" + path + ", " + plan.kind() + ")";
    }
}
