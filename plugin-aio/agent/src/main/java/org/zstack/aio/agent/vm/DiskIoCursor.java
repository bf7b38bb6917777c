package org.zstack.aio.agent.vm;

import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;

import java.util.ArrayList;
import java.util.List;

/**
 * Where one disk stands in its list of io candidates, and which modes were refused on the way (with the error),
 * so the answer can say why a disk runs a lesser mode.
 */
final class DiskIoCursor {

    private final DiskTO disk;
    private final String target;
    private final List<DiskResult.Attempt> attempts = new ArrayList<>();
    private int index;

    DiskIoCursor(DiskTO disk, String target) {
        this.disk = disk;
        this.target = target;
    }

    DiskTO disk() {
        return disk;
    }

    String target() {
        return target;
    }

    /** The mode to try now; null when the disk has no candidates (no io attribute at all). */
    String currentIo() {
        return disk.ioCandidates().isEmpty() ? null : disk.ioCandidates().get(index);
    }

    boolean canStepDown() {
        return index + 1 < disk.ioCandidates().size();
    }

    /** Records the current mode as refused with {@code error} and moves to the next candidate. */
    void stepDown(String error) {
        if (!canStepDown()) {
            throw new IllegalStateException(target + " has no io candidate left after " + currentIo());
        }
        attempts.add(new DiskResult.Attempt(currentIo(), error));
        index++;
    }

    /** Records the last refusal without a next mode (the whole start failed). */
    void recordFinalRefusal(String error) {
        if (currentIo() != null) {
            attempts.add(new DiskResult.Attempt(currentIo(), error));
        }
    }

    List<DiskResult.Attempt> attempts() {
        return List.copyOf(attempts);
    }
}
