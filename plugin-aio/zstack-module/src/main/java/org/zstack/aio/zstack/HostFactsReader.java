package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.aio.plugin.AgentProfile;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.HostIoProbe;
import org.zstack.aio.plugin.IsoDates;
import org.zstack.aio.plugin.RefusedIoMode;
import org.zstack.aio.plugin.ZStackAgent;
import org.zstack.core.db.DatabaseFacade;
import org.zstack.kvm.KVMConstant;
import org.zstack.kvm.KVMSystemTags;
import org.zstack.tag.PatternedSystemTag;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Hosts' io facts as the core's contract holds them ({@link HostIoFacts}), for any number of hosts in one statement:
 * each host's last probe (AioHostIoFactsVO, {@link AioHostIoFactsFlow}) read by the core's {@link HostIoProbe}, with
 * the versions ZStack records itself: QEMU from KvmHypervisorInfoVO (qemu-kvm), else its qemu-img version tag, and
 * libvirt's version tag where the probe printed none, and the refusals remembered on it (AioRefusedIoModeVO,
 * {@link RefusedIoModeStore}) under each primary storage. A host never probed has every fact unknown, each saying why.
 * The one place the module reads a host's facts: a start asks the node's IoFactsCache, which reads here on a miss.
 */
public final class HostFactsReader {

    /** One host as read: its facts and the agent its probe found. */
    public static final class Probed {
        final HostIoFacts facts;
        final ZStackAgent agent;

        Probed(HostIoFacts facts, ZStackAgent agent) {
            this.facts = facts;
            this.agent = agent;
        }
    }

    private final DatabaseFacade dbf;

    public HostFactsReader(DatabaseFacade dbf) {
        this.dbf = dbf;
    }

    /** One host's facts (also when it was never probed). */
    public HostIoFacts facts(String hostUuid) {
        return read(Collections.singletonList(hostUuid)).get(hostUuid).facts;
    }

    /** Every host of {@code hostUuids} (one statement); a uuid that is no host is answered as never probed. */
    public Map<String, Probed> read(Collection<String> hostUuids) {
        List<String> uuids = new ArrayList<>(new LinkedHashSet<>(hostUuids));
        Map<String, Probed> out = new HashMap<>();
        Map<String, List<RefusedIoMode>> refusals = new HashMap<>();
        if (uuids.isEmpty()) return out;
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < uuids.size(); i++) in.append(i == 0 ? "?" : ", ?");
        List<Object> args = new ArrayList<>();
        args.add(KVMConstant.VIRTUALIZER_QEMU_KVM);
        args.add(likePattern(KVMSystemTags.QEMU_IMG_VERSION));
        args.add(likePattern(KVMSystemTags.LIBVIRT_VERSION));
        args.addAll(uuids);
        // the facade's data source as it is now, as IoModeDecisionStore says why
        new JdbcTemplate(dbf.getDataSource()).query("SELECT h.uuid, p.probeOutput, p.probeFailure, p.lastOpDate,"
                + " (SELECT k.version FROM KvmHypervisorInfoVO k WHERE k.uuid = h.uuid AND k.hypervisor = ?),"
                + " (SELECT t.tag FROM SystemTagVO t WHERE t.resourceUuid = h.uuid AND t.resourceType = 'HostVO'"
                + " AND t.tag LIKE ? ORDER BY t.createDate DESC LIMIT 1),"
                + " (SELECT t.tag FROM SystemTagVO t WHERE t.resourceUuid = h.uuid AND t.resourceType = 'HostVO'"
                + " AND t.tag LIKE ? ORDER BY t.createDate DESC LIMIT 1)"
                + ", " + RefusedIoModeStore.COLUMNS
                + " FROM HostVO h LEFT JOIN " + HostIoFactsStore.TABLE + " p ON p.hostUuid = h.uuid"
                // one row per refusal remembered on the host (none: one row), so the facts stay one statement
                + " LEFT JOIN " + RefusedIoModeStore.TABLE + " r ON r.hostUuid = h.uuid"
                + " WHERE h.uuid IN (" + in + ")",
                rs -> {
                    String host = rs.getString(1);
                    RefusedIoMode refused = RefusedIoModeStore.row(host, rs, 8);
                    if (refused != null) refusals.computeIfAbsent(host, k -> new ArrayList<>()).add(refused);
                    if (out.containsKey(host)) return;
                    String qemu = rs.getString(5);
                    if (qemu == null) qemu = token(KVMSystemTags.QEMU_IMG_VERSION, rs.getString(6), KVMSystemTags.QEMU_IMG_VERSION_TOKEN);
                    String libvirt = token(KVMSystemTags.LIBVIRT_VERSION, rs.getString(7), KVMSystemTags.LIBVIRT_VERSION_TOKEN);
                    out.put(host, probed(host, rs.getString(2), rs.getString(3), rs.getTimestamp(4), qemu, libvirt));
                }, args.toArray());
        for (String u : uuids) if (!out.containsKey(u)) out.put(u, probed(u, null, null, null, null, null));
        for (Map.Entry<String, List<RefusedIoMode>> e : refusals.entrySet()) {
            Probed p = out.get(e.getKey());
            out.put(e.getKey(), new Probed(p.facts.withRefused(e.getValue()), p.agent));
        }
        return out;
    }

    private static Probed probed(String hostUuid, String output, String failure, Timestamp at, String qemu, String libvirt) {
        HostIoProbe p = HostIoProbe.read(hostUuid, output, failure, qemu, libvirt);
        HostIoFacts f = at == null ? p.facts() : p.facts().withProbedAt(IsoDates.format(at.getTime()));
        return new Probed(f, AgentProfile.zstack(p.kvmagentPatch()));
    }

    /** ZStack's tag format as SQL's LIKE (ZStack queries a patterned tag the same way). */
    private static String likePattern(PatternedSystemTag tag) {
        return tag.getTagFormat().replaceAll("\\{[^}]+}", "%");
    }

    private static String token(PatternedSystemTag tag, String value, String token) {
        return value == null ? null : tag.getTokenByTag(value, token);
    }
}
