package org.zstack.aio.plugin;

import org.zstack.aio.decision.Version;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The host probe's output ({@code key=value} lines, conf/aio/host-probe.sh) read into the decision's
 * the one host-facts contract {@link HostIoFacts}, with one sentence for every fact that stays unknown and why. Platform-free: a platform runs the
 * script its own way (ZStack: KvmRunShellMsg over SSH at every connect) and hands the text, or why it has none, here.
 *
 * Keys: {@code kernel} (uname -r), {@code io_uring_disabled} (the sysctl; absent when the kernel has none),
 * {@code qemu_io_uring} (yes|no: QEMU's tools really opened an image with aio=io_uring), {@code qemu_io_uring_reason}
 * (why not), {@code libvirt} (libvirtd's version), {@code qemu} (qemu-img's version, used when the platform knows
 * none), {@code kvmagent_patch} (yes|no: the host's ZStack kvmagent carries plugin-aio's optional hot-plug patch; read
 * by a ZStack platform into its {@link AgentProfile}). Every key with a dot ({@code qemu.liburing}, {@code kernel.release}, ...) becomes a named probe of
 * {@link HostIoFacts#getProbes()}, which known-bad rules match as data. Other lines are ignored; the first value of a key
 * wins.
 */
public final class HostIoProbe {

    public static final String KERNEL = "kernel";
    public static final String IO_URING_DISABLED = "io_uring_disabled";
    public static final String QEMU_IO_URING = "qemu_io_uring";
    public static final String QEMU_IO_URING_REASON = "qemu_io_uring_reason";
    public static final String LIBVIRT = "libvirt";
    public static final String QEMU = "qemu";
    public static final String KVMAGENT_PATCH = "kvmagent_patch";

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
        Boolean qemuIoUring = null;
        String q = kv.get(QEMU_IO_URING);
        if ("yes".equals(q)) qemuIoUring = Boolean.TRUE;
        else if ("no".equals(q)) qemuIoUring = Boolean.FALSE;
        else unknown.add("whether QEMU opens an image with aio=io_uring is unknown: " + yesNoWhy(why, QEMU_IO_URING, q) + ".");
        Version libvirt = Version.parseOrNull(kv.get(LIBVIRT));
        if (libvirt == null) libvirt = Version.parseOrNull(platformLibvirt);
        if (libvirt == null) libvirt = version(kv, LIBVIRT, "the libvirt version", why, unknown);
        Map<String, String> probes = new LinkedHashMap<String, String>();
        for (Map.Entry<String, String> e : kv.entrySet()) if (e.getKey().indexOf('.') > 0) probes.put(e.getKey(), e.getValue());
        String reason = Boolean.FALSE.equals(qemuIoUring) ? kv.get(QEMU_IO_URING_REASON) : null;
        String k = kv.get(KVMAGENT_PATCH);
        Boolean patch = "yes".equals(k) ? Boolean.TRUE : "no".equals(k) ? Boolean.FALSE : null;
        if (patch == null) {
            // a probe stored before this key existed prints no such line: a reconnect probes again
            unknown.add("whether the host's kvmagent carries the plugin-aio patch is unknown: " + yesNoWhy(why, KVMAGENT_PATCH, k)
                    + "; the unmodified agent is assumed.");
        }
        HostIoFacts.Builder b = HostIoFacts.builder(hostUuid).kernel(kernel).ioUringDisabled(disabled).qemu(qemu)
                .qemuIoUring(qemuIoUring, reason).libvirt(libvirt).agent(AgentProfile.zstack(patch).name())
                .raw(output, failure);
        for (Map.Entry<String, String> e : probes.entrySet()) b.probe(e.getKey(), e.getValue());
        for (String u : unknown) b.unknown(u);
        return new HostIoProbe(b.build(), patch);
    }

    /** Why a yes|no key has no answer: the probe's failure, its missing line, or what it printed instead. */
    private static String yesNoWhy(String why, String key, String printed) {
        return why != null ? why : printed == null ? "the probe printed no " + key + "= line" : "the probe printed '" + printed + "'";
    }

    /** The host's facts as the contract holds them (the probe's text and failure included; no date: the platform's). */
    public HostIoFacts facts() { return facts; }

    /**
     * Whether the host's ZStack kvmagent carries plugin-aio's hot-plug patch (the probe found its marker in the
     * installed vm_plugin.py); null: unknown. {@link AgentProfile#zstack} turns it into what the agent applies.
     */
    public Boolean kvmagentPatch() { return kvmagentPatch; }

    private static Version version(Map<String, String> kv, String key, String what, String why, List<String> unknown) {
        String v = kv.get(key);
        Version parsed = Version.parseOrNull(v);
        if (parsed == null) {
            unknown.add(what + " is unknown: " + (why != null ? why : v == null ? "the probe printed no " + key + "= line"
                    : "the probe printed '" + v + "', not a version") + ".");
        }
        return parsed;
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
