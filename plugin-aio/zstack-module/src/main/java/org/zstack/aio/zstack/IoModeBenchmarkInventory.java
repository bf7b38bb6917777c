package org.zstack.aio.zstack;

import org.zstack.aio.plugin.bench.BenchLine;
import org.zstack.aio.plugin.bench.StorageBenchmark;
import org.zstack.header.search.Inventory;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A stored io-mode benchmark as APIQueryIoModeBenchmarkMsg and APIRunIoModeBenchmarkEvent return it: host, storage,
 * image kind, how it ended and why, its lines (host-bench.sh's own, one per run, and a skipped= line per mode the host
 * did not allow), when it was taken (ISO-8601 UTC), and ZStack's dates to sort and filter by.
 */
@Inventory(mappingVOClass = AioStorageBenchmarkVO.class)
public class IoModeBenchmarkInventory {
    private String hostUuid;
    private String primaryStorageUuid;
    private String imageKind;
    private String outcome;
    private String note;
    private List<String> lines;
    private String takenAt;
    private Timestamp createDate;
    private Timestamp lastOpDate;

    public static IoModeBenchmarkInventory valueOf(AioStorageBenchmarkVO vo) {
        IoModeBenchmarkInventory inv = of(vo.toBenchmark());
        inv.createDate = vo.getCreateDate();
        inv.lastOpDate = vo.getLastOpDate();
        return inv;
    }

    public static List<IoModeBenchmarkInventory> valueOf(Collection<AioStorageBenchmarkVO> vos) {
        List<IoModeBenchmarkInventory> out = new ArrayList<>();
        for (AioStorageBenchmarkVO vo : vos) out.add(valueOf(vo));
        return out;
    }

    /** A benchmark as it ended (the event of a run, stored or not). */
    static IoModeBenchmarkInventory of(StorageBenchmark b) {
        IoModeBenchmarkInventory inv = new IoModeBenchmarkInventory();
        inv.hostUuid = b.hostUuid();
        inv.primaryStorageUuid = b.primaryStorageUuid();
        inv.imageKind = b.kind().name();
        inv.outcome = b.outcome().name();
        inv.note = b.note();
        inv.lines = new ArrayList<>();
        for (BenchLine l : b.lines()) inv.lines.add(l.text());
        inv.takenAt = b.takenAt();
        return inv;
    }

    public String getHostUuid() {
        return hostUuid;
    }

    public String getPrimaryStorageUuid() {
        return primaryStorageUuid;
    }

    public String getImageKind() {
        return imageKind;
    }

    public String getOutcome() {
        return outcome;
    }

    public String getNote() {
        return note;
    }

    public List<String> getLines() {
        return lines;
    }

    public String getTakenAt() {
        return takenAt;
    }

    public Timestamp getCreateDate() {
        return createDate;
    }

    public Timestamp getLastOpDate() {
        return lastOpDate;
    }
}
