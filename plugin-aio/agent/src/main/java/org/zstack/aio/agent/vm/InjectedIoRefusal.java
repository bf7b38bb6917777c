package org.zstack.aio.agent.vm;

import org.zstack.aio.agent.domain.DiskSpec;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Fault injection for tests and demos (AgentSettings.refusedIoModes / AIO_AGENT_REFUSE_IO): behaves as if
 * QEMU refused the listed io modes, before libvirt is asked, with an error that names the disk the way a
 * real refusal does, so the fallback path that a healthy host never takes can be proven end to end.
 */
final class InjectedIoRefusal {

    private final Set<String> refused;

    InjectedIoRefusal(Set<String> refused) {
        this.refused = Set.copyOf(refused);
    }

    Optional<String> check(List<DiskSpec> disks) {
        if (refused.isEmpty()) {
            return Optional.empty();
        }
        for (DiskSpec d : disks) {
            if (d.io() != null && refused.contains(d.io())) {
                return Optional.of("QEMU refused aio=" + d.io() + " for disk " + d.target() + " (" + d.source()
                        + "): refusal injected by AIO_AGENT_REFUSE_IO=" + String.join(",", refused));
            }
        }
        return Optional.empty();
    }
}
