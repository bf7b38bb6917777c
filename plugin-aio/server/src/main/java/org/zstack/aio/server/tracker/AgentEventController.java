package org.zstack.aio.server.tracker;

import io.swagger.v3.oas.annotations.Hidden;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.zstack.aio.agent.api.VmEventCmd;
import org.zstack.aio.server.inventory.VmInstanceVO;
import org.zstack.aio.server.vm.VmStateRepository;

/**
 * Where agents push domain lifecycle events. An event changes nothing by itself: it makes the tracker read that
 * host's domains from its agent now, so a forged one costs a read and nothing else.
 */
@RestController
@Hidden
class AgentEventController {

    static final String PATH = "/agent-events/vm";

    private final VmStateRepository vms;
    private final HostTracker hosts;

    AgentEventController(VmStateRepository vms, HostTracker hosts) {
        this.vms = vms;
        this.hosts = hosts;
    }

    @PostMapping(PATH)
    ResponseEntity<Void> event(@RequestBody VmEventCmd event) {
        if (event != null && event.vmUuid() != null && event.vmUuid().matches("[0-9a-f]{32}")) {
            vms.findById(event.vmUuid()).map(VmInstanceVO::getHostUuid).ifPresent(hosts::trackSoon);
        }
        return ResponseEntity.accepted().build();
    }
}
