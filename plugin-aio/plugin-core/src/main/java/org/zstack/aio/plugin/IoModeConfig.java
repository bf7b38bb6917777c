package org.zstack.aio.plugin;

import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The io-mode feature's configs, declared once for both platforms: name, type, values, default, description and which
 * resources may override them (most specific first, then the global value). The standalone server's
 * {@code conf/globalConfig/kvm.yaml} and the ZStack module's {@code globalConfig/aioIoMode.xml} and its
 * {@code @BindResourceConfig} fields say the same; {@code ConfigTableAgreementTest} fails when either differs.
 * Why each config binds where it does is in docs/contract.md, "Configs".
 */
public final class IoModeConfig {

    public static final String CATEGORY = "kvm";

    /** kvm/vm.ioMode: the mode a disk asks for. A volume or its storage may each want another. */
    public static final IoModeConfig IO_MODE = new IoModeConfig("vm.ioMode", Type.STRING, RequestedIoMode.THREADS.wire(),
            wires(RequestedIoMode.values()), Arrays.asList(ConfigSource.VOLUME, ConfigSource.PRIMARY_STORAGE),
            "QEMU disk I/O mode: threads (a thread pool, safe everywhere), native (Linux AIO; needs cache none or"
            + " directsync and a non-sparse image on file storage), io_uring (kernel >= 5.1, QEMU >= 5.0 with io_uring,"
            + " libvirt >= 6.3), or auto (the best mode whose checks pass). Takes effect at the next VM start or attach.");

    /** kvm/vm.ioMode.onUnsatisfied: the operator's policy for the whole cloud, so global only. */
    public static final IoModeConfig ON_UNSATISFIED = new IoModeConfig("vm.ioMode.onUnsatisfied", Type.STRING,
            OnUnsatisfied.FALLBACK.wire(), wires(OnUnsatisfied.values()), Collections.<ConfigSource>emptyList(),
            "What to do when the requested io mode's checks fail: fallback (io_uring -> native -> threads, recorded"
            + " with the reason) or fail (refuse to start the VM, naming the volume and the failed check).");

    /** kvm/vm.ioMode.native.allowFalloc: a fact about a storage's filesystem, so per primary storage. */
    public static final IoModeConfig ALLOW_FALLOC = new IoModeConfig("vm.ioMode.native.allowFalloc", Type.BOOLEAN,
            "false", Arrays.asList("true", "false"), Collections.singletonList(ConfigSource.PRIMARY_STORAGE),
            "Whether a falloc-preallocated image counts as non-sparse for native AIO on file storage. Fallocated"
            + " extents are unwritten, so the first write to each still updates filesystem metadata; keep false unless"
            + " you measured your filesystem.");

    /** Every config of the feature, in the order both platforms declare them. */
    public static final List<IoModeConfig> ALL =
            Collections.unmodifiableList(Arrays.asList(IO_MODE, ON_UNSATISFIED, ALLOW_FALLOC));

    /**
     * kvm/vm.ioMode.benchmark.intervalHours (ZStack module): how often each connected KVM host benchmarks each
     * LocalStorage or NFS primary storage it mounts; 0, the default, never (issue 35: a benchmark never runs unless an
     * admin asks, or a schedule config they set). Global only: a schedule is the operator's. 0-8760 (the module's
     * validator).
     */
    public static final IoModeConfig BENCHMARK_INTERVAL_HOURS = new IoModeConfig("vm.ioMode.benchmark.intervalHours",
            Type.INTEGER, "0", Collections.<String>emptyList(), Collections.<ConfigSource>emptyList(),
            "How often, in hours, each connected KVM host benchmarks (qemu-img bench, at most 60 s each) every"
            + " LocalStorage or NFS primary storage it mounts, for auto; 0 (the default) never: a benchmark then runs only"
            + " when an admin asks (RunIoModeBenchmark). At most 8760 (a year).");

    /**
     * kvm/vm.ioMode.workload.sampleInterval: seconds between two workload samples of a host's disks (ZStack module;
     * the standalone server samples on its own tracker's round, kvm/vm.workload.sampleInterval). Global only: it is
     * the cost the operator allows on every host. Its default is conf/aio/measure.properties' workload.intervalSeconds
     * (MeasureSettingsTest checks they agree).
     */
    public static final IoModeConfig WORKLOAD_SAMPLE_INTERVAL = new IoModeConfig("vm.ioMode.workload.sampleInterval",
            Type.INTEGER, "300", Collections.<String>emptyList(), Collections.<ConfigSource>emptyList(),
            "Seconds between two samples of every running disk's block counters on each connected KVM host (one short"
            + " virsh call per host, bounded), folded into each volume's time-decayed workload, which auto weighs the"
            + " host's storage benchmark by. 0 turns sampling off; otherwise 10 to 86400.");

    /** The configs of measuring that only the ZStack module declares (the standalone server has its own). */
    public static final List<IoModeConfig> MEASURING = Collections.unmodifiableList(Arrays.asList(BENCHMARK_INTERVAL_HOURS,
            WORKLOAD_SAMPLE_INTERVAL));

    /** Every config the ZStack module declares, in the order of its globalConfig XML: {@link #ALL}, then {@link #MEASURING}. */
    public static final List<IoModeConfig> ZSTACK_MODULE;

    static {
        List<IoModeConfig> all = new ArrayList<IoModeConfig>(ALL);
        all.addAll(MEASURING);
        ZSTACK_MODULE = Collections.unmodifiableList(all);
    }

    /** A config's value type, as each platform names it. */
    public enum Type {
        STRING("String", "java.lang.String"), BOOLEAN("Boolean", "java.lang.Boolean"), INTEGER("Integer", "java.lang.Integer");

        private final String yaml;
        private final String zstack;

        Type(String yaml, String zstack) {
            this.yaml = yaml;
            this.zstack = zstack;
        }

        /** The type as conf/globalConfig/*.yaml names it. */
        public String yamlName() { return yaml; }

        /** The type as ZStack's globalConfig XML names it. */
        public String zstackName() { return zstack; }
    }

    private final String name;
    private final Type type;
    private final String defaultValue;
    private final List<String> validValues;
    private final List<ConfigSource> bindings;
    private final String description;

    private IoModeConfig(String name, Type type, String defaultValue, List<String> validValues, List<ConfigSource> bindings,
                         String description) {
        this.name = name;
        this.type = type;
        this.defaultValue = defaultValue;
        this.validValues = Collections.unmodifiableList(new ArrayList<String>(validValues));
        this.bindings = Collections.unmodifiableList(new ArrayList<ConfigSource>(bindings));
        this.description = description;
    }

    public String category() { return CATEGORY; }

    public String name() { return name; }

    /** category/name, as both platforms' APIs name a config. */
    public String identity() { return CATEGORY + "/" + name; }

    public Type type() { return type; }

    public String defaultValue() { return defaultValue; }

    public List<String> validValues() { return validValues; }

    /** The levels that may override it, most specific first; empty: global only. */
    public List<ConfigSource> bindings() { return bindings; }

    /** The bindings as resource type names (VolumeVO, PrimaryStorageVO), as both platforms spell them. */
    public List<String> bindingTypes() {
        List<String> out = new ArrayList<String>(bindings.size());
        for (ConfigSource s : bindings) out.add(s.wire());
        return out;
    }


    public String description() { return description; }

    /** The io-mode config of this name ({@link #ALL}), or null when the feature has none. */
    public static IoModeConfig named(String name) {
        for (IoModeConfig c : ALL) if (c.name.equals(name)) return c;
        return null;
    }

    /** Any config the ZStack module declares ({@link #ZSTACK_MODULE}) of this name, or null. */
    public static IoModeConfig declaredByZStackModule(String name) {
        for (IoModeConfig c : ZSTACK_MODULE) if (c.name.equals(name)) return c;
        return null;
    }

    private static List<String> wires(RequestedIoMode[] modes) {
        List<String> out = new ArrayList<String>();
        for (RequestedIoMode m : modes) out.add(m.wire());
        return out;
    }

    private static List<String> wires(OnUnsatisfied[] policies) {
        List<String> out = new ArrayList<String>();
        for (OnUnsatisfied p : policies) out.add(p.wire());
        return out;
    }

    @Override
    public String toString() { return identity(); }
}
