package org.zstack.aio.agent.api;

import java.util.List;

/**
 * One disk of a VM as the server wants it.
 *
 * @param deviceType   file, block or network
 * @param deviceId     0 for the first disk (vda), 1 for vdb, ...
 * @param cache        the {@code <driver cache=...>} value
 * @param ioCandidates the io modes to try, best first ({@code <driver io=...>}); when libvirt or QEMU refuses
 *                     one, the agent tries the next and reports why. Empty: put no io attribute (QEMU default,
 *                     the previous platform's behaviour for file volumes and for network storage).
 */
public record DiskTO(String volumeUuid, String installPath, String format, String deviceType, int deviceId,
                     String cache, List<String> ioCandidates) {

    public DiskTO {
        ioCandidates = ioCandidates == null ? List.of() : List.copyOf(ioCandidates);
    }
}
