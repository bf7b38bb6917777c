package org.zstack.aio.plugin;

import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.Version;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The host probe's output ({@code key=value} lines, conf/aio/host-probe.sh) read into the one host-facts contract,
 * {@link HostIoFacts}, with one sentence for every fact that stays unknown and why. Platform-free: a platform runs the
 * script its own way (ZStack: KvmRunShellMsg over SSH at every connect, {@link HostScript}) and hands the text, or why
 * it has none, here. Every key and how the script measures it: the script's header and docs/decision.md, "Host probes".
 *
 * <ul>
 * <li>typed facts: {@code kernel}, {@code io_uring_disabled} (absent when the kernel has none), {@code qemu} (used when
 * the platform knows no QEMU version), {@code qemu_io_uring} / {@code qemu_native} (yes|no, each with a
 * {@code _reason}), {@code libvirt}, {@code kvmagent_patch} (yes|no, read by a ZStack platform into its
 * {@link AgentProfile});</li>
 * <li>{@code storage.<psUuid>.<field>}: the facts of one primary storage's path ({@link StorageIoFacts}: path,
 * filesystem, loopBacked, directIo, directIoReason);</li>
 * <li>{@code unknown.<key>}: a fact the script could not gather, and why;</li>
 * <li>every other key with a dot ({@code qemu.liburing}, {@code kernel.release}, {@code io_uring.setup}, ...): a named
 * probe of {@link HostIoFacts#getProbes()}, which known-bad rules match as data.</li>
 * </ul>
 * Other lines are ignored; the first value of a key wins.
 */
public final class HostIoProbe {

    public static final String KERNEL = "kernel";
    public static final String IO_URING_DISABLED = "io_uring_disabled";
    public static final String QEMU_IO_URING = "qemu_io_uring";
    public static final String QEMU_IO_URING_REASON = "qemu_io_uring_reason";
    public static final String QEMU_NATIVE = "qemu_native";
    public static final String QEMU_NATIVE_REASON = "qemu_native_reason";
    public static final String LIBVIRT = "libvirt";
    public static final String QEMU = "qemu";
    public static final String KVMAGENT_PATCH = "kvmagent_patch";
    /** {@code storage.<psUuid>.<field>}: one primary storage's path. */
    public static final String STORAGE_PREFIX = "storage.";
    /** {@code unknown.<key>=<why>}: a fact the probe could not gather. */
    public static final String UNKNOWN_PREFIX = "unknown.";

    /**
     * The named facts the shipped known-bad rules test that the probe gathers (kernel.io_uring_disabled is the typed
     * {@code io_uring_disabled}): each is printed, or its {@code unknown.} line says why not.
     */
    public static final List<String> RULE_FACTS = Collections.unmodifiableList(Arrays.asList(HostFacts.QEMU_LIBURING,
            HostFacts.QEMU_LINUX_AIO, HostFacts.AIO_FREE, HostFacts.KERNEL_RELEASE, HostFacts.IO_URING_SETUP,
            HostFacts.PROCESS_SECCOMP));

    private final HostIoFacts facts;
    private final Boolean kvmagentPatch;

    private HostIoProbe(HostIoFacts facts, Boolean kvmagentPatch) {
        this.facts = facts;
        this.kvmagentPatch = kvmagentPatch;
    }

    /**
     * @param output       what the probe printed; null when it did not run
     * @param failure      why the probe gave no usable output (SSH failed, timed out, exit code); null when it ran
     * @param platformQemu the QEMU version the platform itself records for the host (ZStack: KvmHypervisorInfoVO's
     *                     qemu-kvm, else its qemu-img version tag), preferred to the probe's {@code qemu=}; null: none
     * @param platformLibvirt the libvirt version the platform records, used when the probe printed none; null: none
     */
    public static HostIoProbe read(String hostUuid, String output, String failure, String platformQemu,
                                   String platformLibvirt) {
        Map<String, String> kv = keyValues(output);
        List<String> unknown = new ArrayList<String>();
        String why = failure != null ? "the host probe failed (" + failure + ")"
                : output == null ? "the host was not probed since the plugin was installed; reconnect the host"
                : null;
        Version kernel = version(kv, KERNEL, "the kernel version", why, unknown);
        Integer disabled = null;
        String d = kv.get(IO_URING_DISABLED);
        if (d != null) {
            try {
                disabled = Integer.valueOf(d);
            } catch (NumberFormatException e) {
                unknown.add("kernel.io_uring_disabled is unknown: the probe printed '" + d + "', not a number.");
            }
        } else if (why != null) {
            unknown.add("kernel.io_uring_disabled is unknown: " + why + ".");
        }
        Version qemu = Version.parseOrNull(platformQemu);
        if (qemu == null) qemu = version(kv, QEMU, "the QEMU version", why, unknown);
        Boolean qemuIoUring = yesNo(kv, QEMU_IO_URING, "whether QEMU opens an image with aio=io_uring", why, unknown);
        Boolean qemuNative = yesNo(kv, QEMU_NATIVE, "whether QEMU opens an image with aio=native", why, unknown);
        Version libvirt = Version.parseOrNull(kv.get(LIBVIRT));
        if (libvirt == null) libvirt = Version.parseOrNull(platformLibvirt);
        if (libvirt == null) libvirt = version(kv, LIBVIRT, "the libvirt version", why, unknown);
        Map<String, String> probes = new LinkedHashMap<String, String>();
        Map<String, String> notGathered = new LinkedHashMap<String, String>();
        Map<String, Map<String, String>> storages = new LinkedHashMap<String, Map<String, String>>();
        for (Map.Entry<String, String> e : kv.entrySet()) {
            String k = e.getKey();
            if (k.startsWith(UNKNOWN_PREFIX)) notGathered.put(k.substring(UNKNOWN_PREFIX.length()), e.getValue());
            else if (k.startsWith(STORAGE_PREFIX)) storageField(storages, k.substring(STORAGE_PREFIX.length()), e.getValue());
            else if (k.indexOf('.') > 0) probes.put(k, e.getValue());
        }
        ruleFacts(probes, notGathered, why, unknown);
        String k = kv.get(KVMAGENT_PATCH);
        Boolean patch = "yes".equals(k) ? Boolean.TRUE : "no".equals(k) ? Boolean.FALSE : null;
        if (patch == null) {
            // a probe stored before this key existed prints no such line: a reconnect probes again
            unknown.add("whether the host's kvmagent carries the plugin-aio patch is unknown: " + yesNoWhy(why, KVMAGENT_PATCH, k)
                    + "; the unmodified agent is assumed.");
        }
        HostIoFacts.Builder b = HostIoFacts.builder(hostUuid).kernel(kernel).ioUringDisabled(disabled).qemu(qemu)
                .qemuIoUring(qemuIoUring, Boolean.FALSE.equals(qemuIoUring) ? kv.get(QEMU_IO_URING_REASON) : null)
                .qemuNative(qemuNative, Boolean.FALSE.equals(qemuNative) ? kv.get(QEMU_NATIVE_REASON) : null)
                .libvirt(libvirt).agent(AgentProfile.zstack(patch).name()).raw(output, failure);
        for (Map.Entry<String, String> e : probes.entrySet()) b.probe(e.getKey(), e.getValue());
        for (Map.Entry<String, Map<String, String>> e : storages.entrySet()) {
            b.storage(storage(e.getKey(), e.getValue(), notGathered, unknown));
        }
        for (String u : unknown) b.unknown(u);
        return new HostIoProbe(b.build(), patch);
    }

    /** The host's facts as the contract holds them (the probe's text and failure included; no date: the platform's). */
    public HostIoFacts facts() { return facts; }

    /**
     * Whether the host's ZStack kvmagent carries plugin-aio's hot-plug patch (the probe found its marker in the
     * installed vm_plugin.py); null: unknown. {@link AgentProfile#zstack} turns it into what the agent applies.
     */
    public Boolean kvmagentPatch() { return kvmagentPatch; }

    /**
     * Each fact the rules test is printed, or the probe said why not, or (a probe stored before the fact existed) a
     * sentence says it printed nothing; a probe that did not run says so once for all of them.
     */
    private static void ruleFacts(Map<String, String> probes, Map<String, String> notGathered, String why,
                                  List<String> unknown) {
        if (why != null) {
            unknown.add("the facts the known-bad rules test (" + join(RULE_FACTS) + ") are unknown: " + why + ".");
            return;
        }
        for (String fact : RULE_FACTS) {
            if (probes.containsKey(fact)) continue;
            String said = notGathered.get(fact);
            unknown.add(fact + " is unknown: " + (said != null ? said : "the probe printed no " + fact
                    + "= line; reconnect the host to probe it again") + ".");
        }
        for (Map.Entry<String, String> e : notGathered.entrySet()) {
            String key = e.getKey();
            if (!RULE_FACTS.contains(key) && !key.startsWith(STORAGE_PREFIX)) unknown.add(key + " is unknown: " + e.getValue() + ".");
        }
    }

    /** {@code <psUuid>.<field>} of a {@code storage.} key, kept per storage in the order printed. */
    private static void storageField(Map<String, Map<String, String>> storages, String rest, String value) {
        int dot = rest.lastIndexOf('.');
        if (dot <= 0) return;
        String ps = rest.substring(0, dot);
        Map<String, String> fields = storages.get(ps);
        if (fields == null) storages.put(ps, fields = new LinkedHashMap<String, String>());
        fields.put(rest.substring(dot + 1), value);
    }

    private static StorageIoFacts storage(String ps, Map<String, String> f, Map<String, String> notGathered,
                                          List<String> unknown) {
        String path = f.get("path");
        String where = "the path of primary storage " + ps + (path == null ? "" : " (" + path + ")");
        String fs = f.get("filesystem");
        if (fs == null) {
            String said = notGathered.get(STORAGE_PREFIX + ps + ".filesystem");
            unknown.add("the filesystem under " + where + " is unknown: "
                    + (said != null ? said : "the probe printed no storage." + ps + ".filesystem= line") + ".");
        }
        Boolean loop = bool(f.get("loopBacked"));
        Boolean direct = bool(f.get("directIo"));
        if (direct == null) {
            unknown.add("whether " + where + " takes O_DIRECT is unknown: the probe printed "
                    + (f.get("directIo") == null ? "no storage." + ps + ".directIo= line" : "'" + f.get("directIo") + "'") + ".");
        }
        return new StorageIoFacts(ps, path, fs, fs == null ? null : loop, direct,
                Boolean.FALSE.equals(direct) ? f.get("directIoReason") : null);
    }

    private static Boolean bool(String yesNo) {
        return "yes".equals(yesNo) ? Boolean.TRUE : "no".equals(yesNo) ? Boolean.FALSE : null;
    }

    private static Boolean yesNo(Map<String, String> kv, String key, String what, String why, List<String> unknown) {
        String v = kv.get(key);
        Boolean b = bool(v);
        if (b == null) unknown.add(what + " is unknown: " + yesNoWhy(why, key, v) + ".");
        return b;
    }

    /** Why a yes|no key has no answer: the probe's failure, its missing line, or what it printed instead. */
    private static String yesNoWhy(String why, String key, String printed) {
        return why != null ? why : printed == null ? "the probe printed no " + key + "= line" : "the probe printed '" + printed + "'";
    }

    private static Version version(Map<String, String> kv, String key, String what, String why, List<String> unknown) {
        String v = kv.get(key);
        Version parsed = Version.parseOrNull(v);
        if (parsed == null) {
            unknown.add(what + " is unknown: " + (why != null ? why : v == null ? "the probe printed no " + key + "= line"
                    : "the probe printed '" + v + "', not a version") + ".");
        }
        return parsed;
    }

    private static String join(List<String> l) {
        StringBuilder s = new StringBuilder();
        for (String x : l) s.append(s.length() == 0 ? "" : ", ").append(x);
        return s.toString();
    }

    private static Map<String, String> keyValues(String output) {
        Map<String, String> kv = new LinkedHashMap<String, String>();
        if (output == null) return kv;
        for (String line : output.split("\r?\n")) {
            int eq = line.indexOf('=');
            if (eq <= 0) continue;
            String key = line.substring(0, eq).trim();
            String value = line.substring(eq + 1).trim();
            if (key.isEmpty() || key.indexOf(' ') >= 0 || value.isEmpty() || kv.containsKey(key)) continue;
            kv.put(key, value);
        }
        return kv;
    }
}
