package org.zstack.aio.agent.api;

/** The agent's HTTP paths (POST, JSON in and out), in ZStack's style. */
public final class AgentPaths {
    public static final String HOST_CONNECT = "/host/connect";
    public static final String HOST_FACT = "/host/fact";
    public static final String VOLUME_CREATE = "/volume/create";
    public static final String VM_START = "/vm/start";
    public static final String VM_STOP = "/vm/stop";
    public static final String VM_ATTACH_VOLUME = "/vm/attach-volume";
    /** Live-migrate a running VM to another host with the destination's io decisions ({@link VmMigrateCmd}). */
    public static final String VM_MIGRATE = "/vm/migrate";
    public static final String PING = "/ping";
    /** The domains this agent manages, each with its state and its disks' live driver settings ({@link VmListRsp}). */
    public static final String VM_LIST = "/vm/list";
    /** Push domain lifecycle events to a server ({@link VmWatchCmd}). */
    public static final String VM_WATCH = "/vm/watch";
    /** Benchmark a storage path's io modes with qemu-img bench ({@link HostBenchCmd} → {@link HostBenchRsp}). */
    public static final String HOST_BENCH = "/host/bench";
    /** Cancel the running benchmark, if any ({@link HostBenchCancelCmd}). */
    public static final String HOST_BENCH_CANCEL = "/host/bench/cancel";

    private AgentPaths() {
    }
}
