package org.zstack.aio.agent.libvirt;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import org.libvirt.Connect;
import org.libvirt.jna.ConnectionPointer;
import org.libvirt.jna.virTypedParameter;
import org.zstack.aio.agent.api.VmListRsp.BlockStats;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Every running domain's block counters in ONE libvirt call: {@code virConnectGetAllDomainStats} with
 * {@code VIR_DOMAIN_STATS_BLOCK}. libvirt-java 0.5.4 binds only {@code virDomainBlockStats} (one call per disk, and
 * without rd.times/wr.times), so the C function is called through JNA on the connection libvirt-java opened.
 * libvirt reads the counters with its own monitor command (query-blockstats); unlike a QMP passthrough
 * ({@code virsh qemu-monitor-command}) that does not taint the domain.
 */
public final class AllDomainStats {

    /** virDomainStatsTypes: VIR_DOMAIN_STATS_BLOCK = 1 << 5. */
    static final int STATS_BLOCK = 1 << 5;
    /** virConnectGetAllDomainStatsFlags: VIR_CONNECT_GET_ALL_DOMAINS_STATS_ACTIVE (running domains only). */
    static final int ONLY_ACTIVE = 1;

    interface Virt extends Library {
        Virt INSTANCE = Native.load("virt", Virt.class);

        int virConnectGetAllDomainStats(ConnectionPointer conn, int stats, PointerByReference retStats, int flags);

        void virDomainStatsRecordListFree(Pointer stats);

        String virDomainGetName(Pointer domain);

        int virDomainGetID(Pointer domain);
    }

    /** One domain's counters per disk target (vda…) and its libvirt id. */
    public record DomainStats(long domainId, Map<String, BlockStats> disks) {
    }

    private static final Field CONNECTION_POINTER = connectionPointerField();

    private AllDomainStats() {
    }

    private static Field connectionPointerField() {
        try {
            Field f = Connect.class.getDeclaredField("vcp"); // protected in libvirt-java 0.5.x; no getter
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("libvirt-java's Connect has no connection pointer 'vcp'", e);
        }
    }

    /** Domain name → its counters, for every running domain of this connection. */
    public static Map<String, DomainStats> read(Connect c) {
        ConnectionPointer cp;
        try {
            cp = (ConnectionPointer) CONNECTION_POINTER.get(c);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
        PointerByReference ret = new PointerByReference();
        int n = Virt.INSTANCE.virConnectGetAllDomainStats(cp, STATS_BLOCK, ret, ONLY_ACTIVE);
        if (n < 0) throw new IllegalStateException("virConnectGetAllDomainStats failed: " + lastError());
        Pointer records = ret.getValue();
        Map<String, DomainStats> out = new HashMap<>(n * 2);
        try {
            for (int i = 0; i < n; i++) {
                // virDomainStatsRecord { virDomainPtr dom; virTypedParameterPtr params; int nparams; }
                Pointer rec = records.getPointer((long) i * Native.POINTER_SIZE);
                Pointer dom = rec.getPointer(0);
                Pointer params = rec.getPointer(Native.POINTER_SIZE);
                int nparams = rec.getInt(2L * Native.POINTER_SIZE);
                String name = Virt.INSTANCE.virDomainGetName(dom);
                if (name != null) out.put(name, new DomainStats(Integer.toUnsignedLong(Virt.INSTANCE.virDomainGetID(dom)),
                        disks(params, nparams)));
            }
        } finally {
            if (records != null) Virt.INSTANCE.virDomainStatsRecordListFree(records);
        }
        return out;
    }

    private static String lastError() {
        org.libvirt.jna.virError e = org.libvirt.jna.Libvirt.INSTANCE.virGetLastError();
        return e == null || e.message == null ? "no libvirt error message" : e.message;
    }

    /** block.count, block.N.name, block.N.rd.reqs … into target → counters. */
    static Map<String, BlockStats> disks(Pointer params, int nparams) {
        Map<Integer, String> names = new HashMap<>();
        Map<Integer, long[]> values = new HashMap<>();
        if (nparams <= 0) return Map.of();
        virTypedParameter first = new virTypedParameter(params);
        virTypedParameter[] all = (virTypedParameter[]) first.toArray(nparams);
        for (virTypedParameter p : all) {
            p.read();
            String field = Native.toString(p.field, StandardCharsets.US_ASCII.name());
            if (!field.startsWith("block.")) continue;
            int dot = field.indexOf('.', 6);
            if (dot < 0) continue; // block.count
            int idx;
            try {
                idx = Integer.parseInt(field.substring(6, dot));
            } catch (NumberFormatException e) {
                continue;
            }
            String key = field.substring(dot + 1);
            if ("name".equals(key)) {
                names.put(idx, p.value.s);
                continue;
            }
            int slot = slot(key);
            if (slot >= 0) values.computeIfAbsent(idx, k -> new long[6])[slot] = p.value.l;
        }
        Map<String, BlockStats> out = new HashMap<>();
        names.forEach((idx, target) -> {
            long[] v = values.get(idx);
            if (target != null && v != null) out.put(target, new BlockStats(v[0], v[1], v[2], v[3], v[4], v[5]));
        });
        return out;
    }

    private static int slot(String key) {
        switch (key) {
            case "rd.reqs": return 0;
            case "rd.bytes": return 1;
            case "rd.times": return 2;
            case "wr.reqs": return 3;
            case "wr.bytes": return 4;
            case "wr.times": return 5;
            default: return -1;
        }
    }
}
