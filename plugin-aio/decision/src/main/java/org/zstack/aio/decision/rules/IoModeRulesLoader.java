package org.zstack.aio.decision.rules;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeRules;
import org.zstack.aio.decision.IoModeText;
import org.zstack.aio.decision.KnownBadRule;
import org.zstack.aio.decision.ProbeConditions;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.StorageKind;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.VersionRange;
import org.zstack.aio.decision.WorkloadMatch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * Reads conf/aio/io-mode-rules.yaml into {@link IoModeRules}; a malformed file fails loudly at boot. Java 8 API only:
 * the ZStack module (plugin-aio/zstack-module) ships this reader to management nodes running Java 8.
 */
public final class IoModeRulesLoader {

    public static final String CLASSPATH_LOCATION = "conf/aio/io-mode-rules.yaml";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private IoModeRulesLoader() {
    }

    /** From AIO_RULES_FILE when set, else from the classpath (the aio-conf module). */
    public static IoModeRules load() {
        String file = System.getenv("AIO_RULES_FILE");
        if (file != null && !file.trim().isEmpty()) return fromFile(Paths.get(file));
        return fromClasspath();
    }

    public static IoModeRules fromClasspath() {
        try (InputStream in = IoModeRulesLoader.class.getClassLoader().getResourceAsStream(CLASSPATH_LOCATION)) {
            if (in == null) throw new IllegalStateException(CLASSPATH_LOCATION + " is not on the classpath (module aio-conf)");
            return parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static IoModeRules fromFile(Path path) {
        try (InputStream in = Files.newInputStream(path)) {
            return parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read io-mode rules " + path, e);
        }
    }

    public static IoModeRules parse(InputStream in) throws IOException {
        RulesFile f = YAML.readValue(in, RulesFile.class);
        if (f == null) throw new IllegalArgumentException("io-mode rules file is empty");
        require(f.storageTypes, "storageTypes");
        require(f.nativeCacheModes, "nativeCacheModes");
        require(f.nonSparsePreallocations, "nonSparsePreallocations");
        require(f.ioUring, "ioUring");
        require(f.ioUring.minKernel, "ioUring.minKernel");
        require(f.ioUring.minQemu, "ioUring.minQemu");
        require(f.ioUring.minLibvirt, "ioUring.minLibvirt");
        require(f.preference, "preference");
        Map<String, StorageKind> kinds = new LinkedHashMap<>();
        f.storageTypes.forEach((type, kind) -> kinds.put(type, StorageKind.valueOf(kind.toUpperCase(Locale.ROOT))));
        List<KnownBadRule> bad = f.knownBad == null ? Collections.<KnownBadRule>emptyList()
                : f.knownBad.stream().map(IoModeRulesLoader::rule).collect(Collectors.toList());
        return new IoModeRules(kinds, new HashSet<>(f.nativeCacheModes), new HashSet<>(f.nonSparsePreallocations),
                Version.parse(f.ioUring.minKernel), Version.parse(f.ioUring.minQemu), Version.parse(f.ioUring.minLibvirt),
                f.preference.stream().map(IoMode::fromWire).collect(Collectors.toList()), bad,
                f.measuredTieMargin == null ? IoModeRules.DEFAULT_MEASURED_TIE_MARGIN : f.measuredTieMargin,
                workloadMatch(f.workloadMatch), kindDefaults(f.storageKindDefaults))
                .withTexts(texts(f.startRefusals, "startRefusals", true), texts(f.silentFallbacks, "silentFallbacks", false));
    }

    /**
     * startRefusals / silentFallbacks (optional): each needs id, mode (native or io_uring), by (QEMU or libvirt), text
     * and source; a refusal says its scope (hostStorage or volume) and what clears it besides an admin
     * ({@code clearedBy}: versionChange, readBack); a fallback has neither. A bad row stops the boot, named.
     */
    private static List<IoModeText> texts(List<TextFile> rows, String section, boolean refusal) {
        if (rows == null) return Collections.emptyList();
        return rows.stream().map(r -> text(r, section, refusal)).collect(Collectors.toList());
    }

    private static IoModeText text(TextFile r, String section, boolean refusal) {
        String where = section + " " + (r.id == null ? "row without an id" : r.id);
        if (r.id == null || r.mode == null || r.by == null || r.text == null) {
            throw new IllegalArgumentException(where + " needs id, mode, by and text");
        }
        if (r.source == null) throw new IllegalArgumentException(where + " needs a source (where the words were taken from)");
        IoMode mode = IoMode.fromWireOrNull(r.mode);
        if (mode == null || mode == IoMode.THREADS) {
            throw new IllegalArgumentException(where + ": mode is '" + r.mode + "', not native or io_uring");
        }
        IoModeText.By by = "QEMU".equals(r.by) ? IoModeText.By.QEMU : "libvirt".equals(r.by) ? IoModeText.By.LIBVIRT : null;
        if (by == null) throw new IllegalArgumentException(where + ": by is '" + r.by + "', not QEMU or libvirt");
        if (!refusal && (r.scope != null || r.clearedBy != null)) {
            throw new IllegalArgumentException(where + ": a fallback has no scope or clearedBy (nothing is refused)");
        }
        IoModeText.Scope scope = IoModeText.Scope.HOST_STORAGE;
        if (refusal) {
            if ("volume".equals(r.scope)) scope = IoModeText.Scope.VOLUME;
            else if (!"hostStorage".equals(r.scope)) {
                throw new IllegalArgumentException(where + ": scope is '" + r.scope + "', not hostStorage or volume");
            }
        }
        Set<IoModeText.Clearing> cleared = EnumSet.noneOf(IoModeText.Clearing.class);
        if (r.clearedBy != null) for (String c : r.clearedBy) {
            if ("versionChange".equals(c)) cleared.add(IoModeText.Clearing.VERSION_CHANGE);
            else if ("readBack".equals(c)) cleared.add(IoModeText.Clearing.READ_BACK);
            else throw new IllegalArgumentException(where + ": clearedBy names '" + c + "', not versionChange or readBack");
        }
        return new IoModeText(r.id, mode, by, r.text, scope, cleared, r.source);
    }

    /** storageKindDefaults (optional): kind -> a value of kvm/vm.ioMode; a bad kind or mode stops the boot, named. */
    private static Map<StorageKind, RequestedIoMode> kindDefaults(Map<String, String> m) {
        Map<StorageKind, RequestedIoMode> out = new EnumMap<>(StorageKind.class);
        if (m == null) return out;
        m.forEach((kind, mode) -> {
            StorageKind k = Arrays.stream(StorageKind.values()).filter(s -> s.name().equalsIgnoreCase(kind)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("io-mode rules: storageKindDefaults names an unknown"
                            + " storage kind '" + kind + "' (file, block or network)"));
            RequestedIoMode r = Arrays.stream(RequestedIoMode.values()).filter(v -> v.wire().equals(mode)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("io-mode rules: storageKindDefaults." + kind + " is '"
                            + mode + "', not a value of kvm/vm.ioMode (threads, native, io_uring, auto)"));
            out.put(k, r);
        });
        return out;
    }

    /** The section and each of its keys are optional: what is not named keeps the shipped value. */
    private static WorkloadMatch workloadMatch(WorkloadMatchFile w) {
        WorkloadMatch d = WorkloadMatch.DEFAULT;
        if (w == null) return d;
        return new WorkloadMatch(or(w.sizeWeight, d.sizeWeight()), or(w.depthWeight, d.depthWeight()),
                or(w.readFractionWeight, d.readFractionWeight()), or(w.distancePower, d.distancePower()),
                or(w.idleIops, d.idleIops()));
    }

    private static double or(Double v, double otherwise) {
        return v == null ? otherwise : v;
    }

    private static void require(Object value, String key) {
        if (value == null) throw new IllegalArgumentException("io-mode rules: '" + key + "' is missing");
    }

    private static KnownBadRule rule(KnownBadFile r) {
        Set<StorageKind> kinds = new HashSet<>();
        if (r.storageKinds != null) r.storageKinds.forEach(k -> kinds.add(StorageKind.valueOf(k.toUpperCase(Locale.ROOT))));
        if (r.id == null || r.mode == null || r.message == null) {
            throw new IllegalArgumentException("a knownBad rule needs id, mode and message: " + r.id);
        }
        if (r.source == null) throw new IllegalArgumentException("knownBad rule " + r.id + " needs a source (where it was reported)");
        ProbeConditions probes;
        try {
            probes = new ProbeConditions(sets(r.probes), r.probesBelow, r.probesMatch, sets(r.unlessProbes));
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("knownBad rule " + r.id + ": probesMatch is not a regular expression: "
                                               + e.getDescription() + " in " + e.getPattern());
        }
        return new KnownBadRule(r.id, IoMode.fromWire(r.mode), kinds, range(r.kernel), range(r.qemu), range(r.libvirt), r.message,
                r.source, r.cacheModes == null ? null : new HashSet<>(r.cacheModes),
                r.filesystems == null ? null : new HashSet<>(r.filesystems), r.loopBacked, probes);
    }

    private static Map<String, Set<String>> sets(Map<String, List<String>> m) {
        if (m == null) return null;
        Map<String, Set<String>> out = new LinkedHashMap<>();
        m.forEach((k, vs) -> out.put(k, new HashSet<>(vs)));
        return out;
    }

    private static VersionRange range(RangeFile r) {
        if (r == null) return null;
        return new VersionRange(r.min == null ? null : Version.parse(r.min), r.below == null ? null : Version.parse(r.below));
    }

    @JsonIgnoreProperties(ignoreUnknown = false)
    static final class RulesFile {
        public Map<String, String> storageTypes;
        public Map<String, String> storageKindDefaults;
        public List<String> nativeCacheModes;
        public List<String> nonSparsePreallocations;
        public IoUringFile ioUring;
        public List<String> preference;
        public List<KnownBadFile> knownBad;
        public Double measuredTieMargin;
        public WorkloadMatchFile workloadMatch;
        public List<TextFile> startRefusals;
        public List<TextFile> silentFallbacks;
    }

    static final class TextFile {
        public String id;
        public String mode;
        public String by;
        public String text;
        public String scope;
        public List<String> clearedBy;
        public String source;
    }

    /** A key left empty is a mistake, not "the default": Jackson then fails naming it. */
    static final class WorkloadMatchFile {
        @JsonSetter(nulls = Nulls.FAIL) public Double sizeWeight;
        @JsonSetter(nulls = Nulls.FAIL) public Double depthWeight;
        @JsonSetter(nulls = Nulls.FAIL) public Double readFractionWeight;
        @JsonSetter(nulls = Nulls.FAIL) public Double distancePower;
        @JsonSetter(nulls = Nulls.FAIL) public Double idleIops;
    }

    static final class IoUringFile {
        public String minKernel;
        public String minQemu;
        public String minLibvirt;
    }

    static final class KnownBadFile {
        public String id;
        public String mode;
        public List<String> storageKinds;
        public RangeFile kernel;
        public RangeFile qemu;
        public RangeFile libvirt;
        public String message;
        public String source;
        public List<String> cacheModes;
        public List<String> filesystems;
        public Map<String, List<String>> probes;
        public Map<String, Long> probesBelow;
        public Map<String, String> probesMatch;
        public Map<String, List<String>> unlessProbes;
        public Boolean loopBacked;
    }

    static final class RangeFile {
        public String min;
        public String below;
    }
}
