package org.zstack.aio.agent.api;

import java.util.List;

/**
 * What libvirt and QEMU accepted for one disk.
 *
 * @param io       the io attribute the running domain has, null when none was set
 * @param attempts the io modes tried before it and refused, each with libvirt's or QEMU's error
 */
public record DiskResult(String volumeUuid, String io, String cache, List<Attempt> attempts) {

    public DiskResult {
        attempts = attempts == null ? List.of() : List.copyOf(attempts);
    }

    public record Attempt(String io, String error) {
    }
}
