package org.zstack.aio.plugin;

import org.zstack.aio.decision.IoMode;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code userDefinedXmlHookScript} addon that applies each disk's io mode at a VM start through ZStack's unmodified
 * agent ({@link ZStackAgent}). The agent base64-decodes it and runs it through {@code zstacklib/utils/xmlhook.py}
 * right before defineXML, with {@code root} (the domain XML) and {@code hook} in scope. Disks are found by their
 * {@code <serial>}, which the agent sets to the volume uuid. The script uses only what Python 2.7 and Python 3 share.
 *
 * An admin's own hook script already in the command is kept: it runs after ours in the same scope, so it still sees
 * {@code root} and {@code hook} and has the last word, as it would without plugin-aio.
 */
public final class XmlHookScript {

    /** The StartVmCmd addon ZStack's agent runs before defineXML. */
    public static final String ADDON = "userDefinedXmlHookScript";

    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_-]+");

    private XmlHookScript() {
    }

    /**
     * The addon for a start: every disk the plan tells the agent to set ({@link PlannedDisk#set()}; a disk out of the
     * hook's reach, not applicable or refused is left as the agent writes it).
     *
     * @param adminHook the base64 hook already in the command's addons, or null
     * @return the base64 script for the addon
     */
    public static String forStart(DiskPlan plan, String adminHook) {
        Map<String, IoMode> modes = new LinkedHashMap<String, IoMode>();
        for (PlannedDisk d : plan.disks()) if (d.set() != null) modes.put(d.volumeUuid(), d.set());
        return build(modes, adminHook);
    }

    /**
     * @param modes     disk serial (volume uuid) -> io mode to put in that disk's first {@code <driver>}
     * @param adminHook the base64 hook already in the command's addons, or null
     * @return the base64 script for the addon
     * @throws IllegalArgumentException when a serial is not a uuid-like word or the admin's hook is not base64
     */
    public static String build(Map<String, IoMode> modes, String adminHook) {
        StringBuilder py = new StringBuilder();
        py.append("# plugin-aio: the io mode of each disk, keyed by its <serial> (the volume uuid). Generated at VM start.\n");
        py.append("aio_io_modes = {");
        boolean first = true;
        for (Map.Entry<String, IoMode> e : modes.entrySet()) {
            if (!first) py.append(", ");
            first = false;
            py.append('\'').append(safe(e.getKey())).append("': '").append(safe(e.getValue().wire())).append('\'');
        }
        py.append("}\n");
        py.append("for aio_disk in root.iter('disk'):\n");
        py.append("    aio_serial = (aio_disk.findtext('serial') or '').strip()\n");
        py.append("    aio_driver = aio_disk.find('driver')\n");
        py.append("    if aio_serial in aio_io_modes and aio_driver is not None:\n");
        py.append("        aio_driver.set('io', aio_io_modes[aio_serial])\n");
        if (adminHook != null && !adminHook.trim().isEmpty()) {
            // validate now: a broken addon would otherwise fail the start on the host with a vaguer error
            Base64.getMimeDecoder().decode(adminHook.trim());
            py.append("# the admin's own hook script, unchanged, run last in the same scope (root, hook)\n");
            py.append("import base64 as aio_base64\n");
            py.append("exec(compile(aio_base64.b64decode('").append(adminHook.trim().replaceAll("\\s", ""))
              .append("'), '<admin xml hook>', 'exec'), globals())\n");
        }
        return Base64.getEncoder().encodeToString(py.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Values go into Python string literals: only what a uuid and a mode are made of. */
    private static String safe(String s) {
        if (!SAFE.matcher(s).matches()) throw new IllegalArgumentException("unexpected characters in '" + s + "'");
        return s;
    }
}
