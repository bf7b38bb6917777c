package org.zstack.aio.plugin;

import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.IoModeRules;
import org.zstack.aio.decision.IoModeText;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The read-back half of {@link DiskIoModes} (its {@link DiskIoModes#readBack}): what a host says its VMs' disks run,
 * compared with the stored decisions, one sentence per disagreement. Stateless beyond the immutable rules.
 */
final class DiskReadBack {

    private final IoModeRules rules;

    DiskReadBack(IoModeRules rules) {
        this.rules = rules;
    }

    ReadBackResult compare(ReadBackRequest request, IoModePorts ports) {
        ReadBackResults out = new ReadBackResults();
        HostRef h = request.host();
        if (request.output() == null) {
            for (String vm : request.volumesByVm().keySet()) {
                out.unread.add("VM " + vm + " on " + h.label() + " was not read back: " + request.failure() + ".");
            }
            return out.result();
        }
        ReadBack read = ReadBack.parse(request.output());
        List<String> uuids = request.volumeUuids();
        Map<String, DecisionRecord> stored = ports.stored(uuids);
        Map<String, VolumeIoFacts> volumes = ports.volumes(uuids);
        HostIoFacts host = ports.host(h.uuid());
        for (Map.Entry<String, List<String>> vm : request.volumesByVm().entrySet()) {
            ReadBack.Domain d = read.domain(vm.getKey());
            String why = d == null ? read.error(vm.getKey()) : !d.running() ? "its domain is " + d.state() : null;
            if (d == null && why == null) why = "the read-back printed nothing for it";
            List<ReadBack.RunningDisk> disks = null;
            if (why == null) {
                try {
                    disks = d.disks();
                } catch (IllegalArgumentException e) {
                    why = "its domain XML does not parse (" + e.getMessage() + ")";
                }
            }
            if (why != null) {
                out.unread.add("VM " + vm.getKey() + " on " + h.label() + " was not read back: " + why + ".");
                continue;
            }
            Map<IoMode, String> fellBack = fellBack(d.log());
            for (String vol : vm.getValue()) {
                DecisionRecord r = stored.get(vol);
                // no decision of this VM to compare with (another VM's, or none stored), or one that never ran
                if (r == null || !vm.getKey().equals(r.getVmInstanceUuid()) || r.isRefused()) continue;
                VolumeIoFacts v = volumes.get(vol);
                readOne(out, r, v, find(disks, vol, request.imagePaths().get(vol)), fellBack, vm.getKey(), h, host,
                        request.at());
            }
        }
        return out.result();
    }

    /** The modes QEMU wrote in the VM's log since its start that it runs on its thread pool instead, with its words. */
    private Map<IoMode, String> fellBack(String log) {
        Map<IoMode, String> out = new EnumMap<IoMode, String>(IoMode.class);
        if (log == null) return out;
        for (IoModeText t : rules.silentFallbacks()) {
            int at = log.indexOf(t.text());
            if (at >= 0 && !out.containsKey(t.mode())) out.put(t.mode(), RefusalRecognizer.excerpt(log, at));
        }
        return out;
    }

    private static ReadBack.RunningDisk find(List<ReadBack.RunningDisk> disks, String volumeUuid, String path) {
        for (ReadBack.RunningDisk d : disks) if (volumeUuid.equals(d.serial())) return d;
        if (path != null) for (ReadBack.RunningDisk d : disks) if (path.equals(d.source())) return d;
        return null;
    }

    private static void readOne(ReadBackResults out, DecisionRecord r, VolumeIoFacts v, ReadBack.RunningDisk disk,
                                Map<IoMode, String> fellBack, String vm, HostRef h, HostIoFacts host, String at) {
        String vol = r.getVolumeUuid();
        String who = "volume " + (v == null ? vol : v.label()) + " of VM " + vm + " on " + h.label();
        String decided = r.getEffective();
        if (disk == null) {
            String sentence = who + " has no disk in the running domain (no <serial>" + vol + "</serial>"
                              + "), so what it runs is unknown.";
            out.records.add(r.readBack(null, null, null, at, sentence));
            out.disagreements.add(new ReadBackResult.Disagreement(vm, vol, h.uuid(), decided, null, sentence));
            return;
        }
        String runs;
        String because;
        if ("network".equals(disk.type())) {
            runs = IoModeDecision.NOT_APPLICABLE;
            because = "it is a network disk, which takes no io attribute";
        } else {
            IoMode told = IoMode.fromWireOrNull(disk.io());
            IoMode m = told == null ? IoMode.THREADS : told;
            String fell = fellBack.get(m);
            if (fell != null) {
                runs = IoMode.THREADS.wire();
                because = "QEMU wrote \"" + fell + "\" in the VM's log since its start";
            } else {
                runs = m.wire();
                because = disk.io() == null ? "its <driver> in the running domain has no io attribute (QEMU's thread pool),"
                        + " so what applies the decision did not set it" : "its <driver> in the running domain has io='"
                        + disk.io() + "'";
                if (v != null && m != IoMode.THREADS) out.clearedBy(host, v.primaryStorageUuid(), m, who);
            }
        }
        String sentence = runs.equals(decided) ? null : who + " runs " + runs + ", not the " + decided + " its decision says: "
                + because + ".";
        out.records.add(r.readBack(disk.io(), disk.cache(), runs, at, sentence));
        if (sentence != null) out.disagreements.add(new ReadBackResult.Disagreement(vm, vol, h.uuid(), decided, runs, sentence));
    }

    /** A read-back's findings as they come. */
    private static final class ReadBackResults {
        final List<DecisionRecord> records = new ArrayList<DecisionRecord>();
        final List<ReadBackResult.Disagreement> disagreements = new ArrayList<ReadBackResult.Disagreement>();
        final List<RefusedIoMode> cleared = new ArrayList<RefusedIoMode>();
        final List<String> clearedSentences = new ArrayList<String>();
        final List<String> unread = new ArrayList<String>();

        /** A disk runs {@code mode} on {@code ps}: the refusals of that mode there that a read-back clears go. */
        void clearedBy(HostIoFacts host, String ps, IoMode mode, String who) {
            StorageIoFacts path = host == null ? null : host.storage(ps);
            if (path == null) return;
            for (RefusedIoMode r : path.getRefused()) {
                if (mode.wire().equals(r.getMode()) && r.clearedBy(RefusedIoMode.CLEARED_BY_READ_BACK) && !cleared.contains(r)) {
                    cleared.add(r);
                    clearedSentences.add("the refusal of " + r.getMode() + " on host " + r.getHostUuid() + " and primary storage "
                            + ps + " by " + r.getBy() + " (" + r.getRefusalId() + ", " + r.getRefusedAt() + ") is cleared: "
                            + who + " runs " + mode.wire() + " as libvirt's QEMU opened it");
                }
            }
        }

        ReadBackResult result() {
            return new ReadBackResult(records, disagreements, cleared, clearedSentences, unread);
        }
    }
}
