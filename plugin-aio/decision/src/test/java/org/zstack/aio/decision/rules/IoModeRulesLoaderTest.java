package org.zstack.aio.decision.rules;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeRules;
import org.zstack.aio.decision.IoModeText;
import org.zstack.aio.decision.KnownBadRule;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.StorageKind;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.WorkloadMatch;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IoModeRulesLoaderTest {

    /** A complete, valid rules file; each failure test breaks one thing in it. */
    private static final String VALID = """
            storageTypes:
              LocalStorage: file
              SharedBlock: block
              Ceph: network
            nativeCacheModes: [none, directsync]
            nonSparsePreallocations: [full]
            ioUring:
              minKernel: "5.1"
              minQemu: "5.0"
              minLibvirt: "6.3.0"
            preference: [io_uring, native, threads]
            knownBad:
              - id: r1
                mode: io_uring
                storageKinds: [block]
                kernel: { min: "5.1", below: "5.13" }
                message: "m1"
                source: "s1"
                cacheModes: [none]
                filesystems: [btrfs]
                probes: { qemu.liburing: [liburing.so.1] }
                probesBelow: { aio.free: 1024 }
                probesMatch: { kernel.release: '\\.el9' }
                unlessProbes: { kernel.io_uring_disabled: ["0"] }
                loopBacked: true
            """;

    private static IoModeRules parse(String yaml) throws IOException {
        return IoModeRulesLoader.parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theShippedRulesLoadFromTheClasspath() {
        IoModeRules r = IoModeRulesLoader.fromClasspath();
        assertThat(r.storageTypes()).containsEntry("LocalStorage", StorageKind.FILE).containsEntry("NFS", StorageKind.FILE)
                .containsEntry("SharedMountPoint", StorageKind.FILE).containsEntry("SharedBlock", StorageKind.BLOCK)
                .containsEntry("Ceph", StorageKind.NETWORK);
        assertThat(r.nativeCacheModes()).containsExactlyInAnyOrder("none", "directsync");
        assertThat(r.nonSparsePreallocations()).containsExactly("full");
        assertThat(r.minKernel()).isEqualTo(Version.parse("5.1"));
        assertThat(r.minQemu()).isEqualTo(Version.parse("5.0"));
        assertThat(r.minLibvirt()).isEqualTo(Version.parse("6.3.0"));
        assertThat(r.preference()).containsExactly(IoMode.IO_URING, IoMode.NATIVE, IoMode.THREADS);
        assertThat(r.knownBad()).extracting(KnownBadRule::id).containsExactly("qemu-7.1-io_uring-hang", "lvm-io_uring",
                "cifs-io_uring-kernel-5.15", "btrfs-native-odirect", "btrfs-io_uring-odirect", "qemu-5.0-7.0-io_uring-btrfs",
                "qemu-before-6.1-io_uring", "liburing.so.1-io_uring", "aio-max-nr-exhausted", "qemu-without-linux-aio",
                "el9-io_uring-off-by-default", "zfs-io_uring", "loop-io_uring", "kernel-before-5.13-io_uring",
                "qemu-10.2-io_uring-unavailable", "seccomp-io_uring");
        assertThat(r.knownBad()).allSatisfy(k -> assertThat(k.source()).isNotBlank());
        assertThat(r.measuredTieMargin()).isEqualTo(0.05);
        // block storage keeps stock ZStack's io='native'; file and network kinds take the global default
        assertThat(r.kindDefaults()).containsExactly(Map.entry(StorageKind.BLOCK, RequestedIoMode.NATIVE));
        assertThat(r.kindDefault(StorageKind.FILE)).isNull();
        assertThat(r.kindDefault(StorageKind.NETWORK)).isNull();
        // the file states the defaults, so a rules file without the section decides the same
        assertThat(r.workloadMatch()).isEqualTo(new WorkloadMatch(1, 1, 4, 2, 0.01)).isEqualTo(WorkloadMatch.DEFAULT);
    }

    private static final String WORKLOAD_MATCH = """
            workloadMatch:
              sizeWeight: 0.5
              depthWeight: 2
              readFractionWeight: 8
              distancePower: 3
              idleIops: 1.5
            """;

    @Test
    void workloadMatchIsReadKeyByKey() throws IOException {
        assertThat(parse(VALID + WORKLOAD_MATCH).workloadMatch()).isEqualTo(new WorkloadMatch(0.5, 2, 8, 3, 1.5));
    }

    @Test
    void workloadMatchAndEachOfItsKeysAreOptional() throws IOException {
        assertThat(parse(VALID).workloadMatch()).isEqualTo(WorkloadMatch.DEFAULT);
        assertThat(parse(VALID + "workloadMatch:\n  readFractionWeight: 6\n").workloadMatch())
                .isEqualTo(new WorkloadMatch(1, 1, 6, 2, 0.01));
        assertThat(parse(VALID + "workloadMatch:\n  idleIops: 0\n").workloadMatch())
                .isEqualTo(new WorkloadMatch(1, 1, 4, 2, 0));
    }

    @Test
    void aBadWorkloadMatchValueIsNamed() {
        for (String[] bad : new String[][]{
                {"sizeWeight: 0.5", "sizeWeight: -1", "workloadMatch.sizeWeight"},
                {"depthWeight: 2", "depthWeight: -0.1", "workloadMatch.depthWeight"},
                {"readFractionWeight: 8", "readFractionWeight: 1e6", "workloadMatch.readFractionWeight"},
                {"distancePower: 3", "distancePower: 0", "workloadMatch.distancePower"},
                {"distancePower: 3", "distancePower: 10.5", "workloadMatch.distancePower"},
                {"idleIops: 1.5", "idleIops: -0.01", "workloadMatch.idleIops"}}) {
            String yaml = VALID + WORKLOAD_MATCH.replace(bad[0], bad[1]);
            assertThat(yaml).contains(bad[1]);
            assertThatThrownBy(() -> parse(yaml)).as(bad[1]).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(bad[2]);
        }
        String allZero = VALID + "workloadMatch:\n  sizeWeight: 0\n  depthWeight: 0\n  readFractionWeight: 0\n";
        assertThatThrownBy(() -> parse(allZero)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one of sizeWeight, depthWeight and readFractionWeight");
    }

    @Test
    void aWorkloadMatchKeyThatIsNotANumberEmptyOrMisspeltIsNamed() {
        // Jackson names the key in its message (reference chain ...["distancePower"]); it reads no YAML .nan or .inf
        assertThatThrownBy(() -> parse(VALID + WORKLOAD_MATCH.replace("idleIops: 1.5", "idleIops: .inf")))
                .isInstanceOf(IOException.class).hasMessageContaining("idleIops");
        assertThatThrownBy(() -> parse(VALID + WORKLOAD_MATCH.replace("depthWeight: 2", "depthWeight: .nan")))
                .isInstanceOf(IOException.class).hasMessageContaining("depthWeight");
        assertThatThrownBy(() -> parse(VALID + WORKLOAD_MATCH.replace("distancePower: 3", "distancePower: square")))
                .isInstanceOf(IOException.class).hasMessageContaining("distancePower");
        assertThatThrownBy(() -> parse(VALID + WORKLOAD_MATCH.replace("distancePower: 3", "distancePower:")))
                .isInstanceOf(IOException.class).hasMessageContaining("distancePower");
        assertThatThrownBy(() -> parse(VALID + WORKLOAD_MATCH.replace("sizeWeight:", "blockSizeWeight:")))
                .isInstanceOf(IOException.class).hasMessageContaining("blockSizeWeight");
    }

    @Test
    void parsesEveryField() throws IOException {
        IoModeRules r = parse(VALID);
        assertThat(r.storageTypes()).isEqualTo(Map.of("LocalStorage", StorageKind.FILE, "SharedBlock", StorageKind.BLOCK,
                "Ceph", StorageKind.NETWORK));
        KnownBadRule k = r.knownBad().get(0);
        assertThat(k.mode()).isEqualTo(IoMode.IO_URING);
        assertThat(k.storageKinds()).isEqualTo(Set.of(StorageKind.BLOCK));
        assertThat(k.kernel().min()).isEqualTo(Version.parse("5.1"));
        assertThat(k.kernel().below()).isEqualTo(Version.parse("5.13"));
        assertThat(k.qemu()).isNull();
        assertThat(k.message()).isEqualTo("m1");
        assertThat(k.source()).isEqualTo("s1");
        assertThat(k.cacheModes()).containsExactly("none");
        assertThat(k.filesystems()).containsExactly("btrfs");
        assertThat(k.probesIn()).isEqualTo(Map.of("qemu.liburing", Set.of("liburing.so.1")));
        assertThat(k.probesBelow()).isEqualTo(Map.of("aio.free", 1024L));
        assertThat(k.probes().matching()).isEqualTo(Map.of("kernel.release", "\\.el9"));
        assertThat(k.probes().unless()).isEqualTo(Map.of("kernel.io_uring_disabled", Set.of("0")));
        assertThat(k.loopBacked()).isTrue();
    }

    @Test
    void theNewConditionsAreOptional() throws IOException {
        KnownBadRule k = parse(VALID.replace("    probesMatch: { kernel.release: '\\.el9' }\n", "")
                .replace("    unlessProbes: { kernel.io_uring_disabled: [\"0\"] }\n", "").replace("    loopBacked: true\n", ""))
                .knownBad().get(0);
        assertThat(k.probes().matching()).isEmpty();
        assertThat(k.probes().unless()).isEmpty();
        assertThat(k.loopBacked()).isNull();
    }

    @Test
    void aMalformedProbesMatchFailsTheLoadNamingTheRow() {
        assertThatThrownBy(() -> parse(VALID.replace("'\\.el9'", "'(el9'")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("r1").hasMessageContaining("probesMatch")
                .hasMessageContaining("(el9");
    }

    @Test
    void aKnownBadRuleNeedsASource() {
        assertThatThrownBy(() -> parse(VALID.replace("    source: \"s1\"\n", "")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("r1").hasMessageContaining("source");
    }

    @Test
    void storageKindDefaultsAreOptionalAndReadByKind() throws IOException {
        assertThat(parse(VALID).kindDefaults()).isEmpty();
        IoModeRules r = parse(VALID + "storageKindDefaults:\n  block: native\n  file: auto\n");
        assertThat(r.kindDefault(r.kindOf("SharedBlock"))).isEqualTo(RequestedIoMode.NATIVE);
        assertThat(r.kindDefault(r.kindOf("LocalStorage"))).isEqualTo(RequestedIoMode.AUTO);
        assertThat(r.kindDefault(r.kindOf("Ceph"))).isNull();
    }

    @Test
    void aBadStorageKindDefaultIsNamed() {
        assertThatThrownBy(() -> parse(VALID + "storageKindDefaults:\n  lvm: native\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown storage kind 'lvm'");
        assertThatThrownBy(() -> parse(VALID + "storageKindDefaults:\n  block: Native\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("storageKindDefaults.block is 'Native'");
        assertThatThrownBy(() -> parse(VALID + "storageKindDefaults:\n  network: native\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("network storage takes no io attribute");
    }

    @Test
    void knownBadIsOptional() throws IOException {
        assertThat(parse(VALID.substring(0, VALID.indexOf("knownBad:"))).knownBad()).isEmpty();
    }

    @Test
    void unknownStorageTypeFallsBackToFile() throws IOException {
        assertThat(parse(VALID).kindOf("SomethingNew")).isEqualTo(StorageKind.FILE);
        assertThat(parse(VALID).kindOf(null)).isEqualTo(StorageKind.FILE);
    }

    @Test
    void preferenceNamesEachModeAtMostOnce() {
        assertThatThrownBy(() -> parse(VALID.replace("[io_uring, native, threads]", "[native, native, threads]")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most once");
    }

    @Test
    void preferenceMustEndWithThreads() {
        assertThatThrownBy(() -> parse(VALID.replace("[io_uring, native, threads]", "[io_uring, threads, native]")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threads");
        assertThatThrownBy(() -> parse(VALID.replace("[io_uring, native, threads]", "[]")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threads");
    }

    @Test
    void malformedYamlFailsLoudly() {
        assertThatThrownBy(() -> parse("storageTypes: [unclosed\n  nativeCacheModes: {"))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> parse(VALID.replace("  SharedBlock: block", " SharedBlock: block\n\tbad: tab")))
                .isInstanceOf(IOException.class);
    }

    @Test
    void unknownKeysAreRejectedNotIgnored() {
        // a typo must not silently drop a rule
        assertThatThrownBy(() -> parse(VALID.replace("nativeCacheModes:", "nativeCacheMode:")))
                .isInstanceOf(IOException.class).hasMessageContaining("nativeCacheMode");
        assertThatThrownBy(() -> parse(VALID.replace("minKernel:", "minKernal:")))
                .isInstanceOf(IOException.class).hasMessageContaining("minKernal");
        assertThatThrownBy(() -> parse(VALID.replace("    message: \"m1\"", "    message: \"m1\"\n    qemuu: { min: \"1\" }")))
                .isInstanceOf(IOException.class).hasMessageContaining("qemuu");
    }

    @Test
    void badValuesFailLoudly() {
        assertThatThrownBy(() -> parse(VALID.replace("SharedBlock: block", "SharedBlock: tape")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TAPE");
        assertThatThrownBy(() -> parse(VALID.replace("[io_uring, native, threads]", "[io_uring, aio, threads]")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("aio");
        assertThatThrownBy(() -> parse(VALID.replace("minQemu: \"5.0\"", "minQemu: \"latest\"")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("latest");
        assertThatThrownBy(() -> parse(VALID.replace("below: \"5.13\"", "below: \"soon\"")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("soon");
        assertThatThrownBy(() -> parse(VALID.replace("mode: io_uring", "mode: auto")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("auto");
    }

    @Test
    void aKnownBadRuleNeedsIdModeAndMessage() {
        for (String drop : List.of("id: r1\n    ", "    mode: io_uring\n", "    message: \"m1\"\n")) {
            String yaml = VALID.replace(drop, "");
            assertThat(yaml).isNotEqualTo(VALID);
            assertThatThrownBy(() -> parse(yaml)).as(yaml).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("id, mode and message");
        }
    }

    @Test
    void aMissingSectionIsNamed() {
        for (String section : List.of("storageTypes", "nativeCacheModes", "nonSparsePreallocations", "ioUring", "preference")) {
            String yaml = removeSection(VALID, section);
            assertThat(yaml).doesNotContain(section + ":");
            assertThatThrownBy(() -> parse(yaml)).as(section).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(section);
        }
        assertThatThrownBy(() -> parse(VALID.replace("  minLibvirt: \"6.3.0\"\n", ""))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("minLibvirt");
    }

    @Test
    void anEmptyFileFailsLoudly() {
        assertThatThrownBy(() -> parse("")).isInstanceOf(Exception.class);
        assertThatThrownBy(() -> parse("# only a comment\n")).isInstanceOf(Exception.class);
    }

    @Test
    void fromFileReadsAFileAndNamesItWhenMissing(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("rules.yaml");
        Files.writeString(f, VALID.replace("minKernel: \"5.1\"", "minKernel: \"5.10\""));
        assertThat(IoModeRulesLoader.fromFile(f).minKernel()).isEqualTo(Version.parse("5.10"));
        Path missing = dir.resolve("nope.yaml");
        assertThatThrownBy(() -> IoModeRulesLoader.fromFile(missing)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("nope.yaml");
    }

    /** Drops a top-level key and its indented body. */
    private static final String TEXTS = """
            startRefusals:
              - id: t1
                mode: io_uring
                by: QEMU
                text: "Unable to use io_uring"
                scope: hostStorage
                clearedBy: [readBack, versionChange]
                source: "s"
              - id: t2
                mode: native
                by: libvirt
                text: "needs no cache"
                scope: volume
                source: "s2"
            silentFallbacks:
              - id: f1
                mode: io_uring
                by: QEMU
                text: "falling back"
                source: "s3"
            """;

    @Test
    void theShippedRefusalAndFallbackTextsLoadEachWithItsSource() {
        IoModeRules r = IoModeRulesLoader.fromClasspath();
        assertThat(r.startRefusals()).extracting(IoModeText::id).containsExactly("qemu-native-needs-o-direct",
                "libvirt-native-needs-direct-cache", "libvirt-native-needs-direct-cache-before-6", "qemu-native-not-built",
                "qemu-native-no-aio-context", "qemu-io_uring-not-built", "qemu-io_uring-ring-init", "qemu-io_uring-unavailable",
                "libvirt-io_uring-not-in-qemu");
        assertThat(r.silentFallbacks()).extracting(IoModeText::id).containsExactly("qemu-io_uring-thread-pool",
                "qemu-native-thread-pool", "qemu-linux-aio-thread-pool");
        assertThat(r.startRefusals()).allSatisfy(t -> assertThat(t.source()).isNotBlank());
        assertThat(r.silentFallbacks()).allSatisfy(t -> {
            assertThat(t.source()).isNotBlank();
            assertThat(t.text()).contains("falling back to thread pool");
        });
        // QEMU 7.2's own words on this machine (HostProbeScriptTest) are recognised as the io_uring ring refusal
        assertThat(r.startRefusals()).filteredOn(t -> t.foundIn("qemu-img: Could not open 't.img': Unable to use io_uring:"
                + " failed to init linux io_uring ring")).extracting(IoModeText::id).containsExactly("qemu-io_uring-ring-init");
    }

    @Test
    void refusalAndFallbackTextsAreReadRowByRow() throws IOException {
        IoModeRules r = parse(VALID + TEXTS);
        IoModeText t1 = r.startRefusals().get(0);
        assertThat(t1.mode()).isEqualTo(IoMode.IO_URING);
        assertThat(t1.by()).isEqualTo(IoModeText.By.QEMU);
        assertThat(t1.scope()).isEqualTo(IoModeText.Scope.HOST_STORAGE);
        assertThat(t1.clearedBy()).containsExactlyInAnyOrder(IoModeText.Clearing.READ_BACK, IoModeText.Clearing.VERSION_CHANGE);
        IoModeText t2 = r.startRefusals().get(1);
        assertThat(t2.by()).isEqualTo(IoModeText.By.LIBVIRT);
        assertThat(t2.scope()).isEqualTo(IoModeText.Scope.VOLUME);
        assertThat(t2.clearedBy()).isEmpty();
        assertThat(r.silentFallbacks()).extracting(IoModeText::id).containsExactly("f1");
        // both sections are optional
        assertThat(parse(VALID).startRefusals()).isEmpty();
        assertThat(parse(VALID).silentFallbacks()).isEmpty();
    }

    @Test
    void aBadRefusalOrFallbackRowIsNamed() {
        assertThatThrownBy(() -> parse(VALID + TEXTS.replace("    source: \"s\"\n", "")))
                .hasMessage("startRefusals t1 needs a source (where the words were taken from)");
        assertThatThrownBy(() -> parse(VALID + TEXTS.replace("mode: io_uring\n    by: QEMU\n    text: \"Unable",
                "mode: threads\n    by: QEMU\n    text: \"Unable")))
                .hasMessage("startRefusals t1: mode is 'threads', not native or io_uring");
        assertThatThrownBy(() -> parse(VALID + TEXTS.replace("by: libvirt", "by: kernel")))
                .hasMessage("startRefusals t2: by is 'kernel', not QEMU or libvirt");
        assertThatThrownBy(() -> parse(VALID + TEXTS.replace("scope: volume", "scope: host")))
                .hasMessage("startRefusals t2: scope is 'host', not hostStorage or volume");
        assertThatThrownBy(() -> parse(VALID + TEXTS.replace("[readBack, versionChange]", "[probe]")))
                .hasMessage("startRefusals t1: clearedBy names 'probe', not versionChange or readBack");
        assertThatThrownBy(() -> parse(VALID + TEXTS.replace("source: \"s3\"", "source: \"s3\"\n    scope: volume")))
                .hasMessage("silentFallbacks f1: a fallback has no scope or clearedBy (nothing is refused)");
        assertThatThrownBy(() -> parse(VALID + TEXTS.replace("id: f1", "id: t1")))
                .hasMessage("silentFallbacks: id t1 is used twice");
        assertThatThrownBy(() -> parse(VALID + TEXTS.replace("    text: \"needs no cache\"\n", "")))
                .hasMessage("startRefusals t2 needs id, mode, by and text");
    }

    private static String removeSection(String yaml, String key) {
        StringBuilder out = new StringBuilder();
        boolean skipping = false;
        for (String line : yaml.split("\n", -1)) {
            if (line.startsWith(key + ":")) { skipping = true; continue; }
            if (skipping && (line.startsWith(" ") || line.isEmpty())) continue;
            skipping = false;
            out.append(line).append('\n');
        }
        return out.toString();
    }
}
