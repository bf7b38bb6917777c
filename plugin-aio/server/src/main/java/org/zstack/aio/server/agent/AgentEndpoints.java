package org.zstack.aio.server.agent;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.inventory.HostRepository;
import org.zstack.aio.server.inventory.HostVO;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The enrolled endpoint of each host's agent, by address: read from the database (and the secret opened) once
 * per host and address, then kept in memory, so a VM start costs no extra query. Enrolling on this node replaces it;
 * enrolling on another node is noticed when the agent refuses the cached credentials ({@link #reread}).
 */
@Component
public class AgentEndpoints {

    private final HostRepository hosts;
    private final AgentCredentialRepository credentials;
    private final SecretBox box;
    private final Map<String, AgentEndpoint> byAddress = new ConcurrentHashMap<>();

    public AgentEndpoints(HostRepository hosts, AgentCredentialRepository credentials, SecretBox box) {
        this.hosts = hosts;
        this.credentials = credentials;
        this.box = box;
    }

    /** @throws ApiException 409 when no host at that address is enrolled (e.g. a host from before enrollment) */
    public AgentEndpoint at(String ip, int port) {
        AgentEndpoint cached = byAddress.get(ip + ":" + port);
        if (cached != null) {
            return cached;
        }
        List<HostVO> found = hosts.findByManagementIpAndAgentPort(ip, port);
        for (HostVO h : found) {
            var c = credentials.findById(h.getUuid());
            if (c.isPresent()) {
                AgentEndpoint e = new AgentEndpoint(ip, port, HexFormat.of().parseHex(c.get().getCertSha256()),
                        openSecret(ip, port, c.get().getSealedSecret()));
                byAddress.put(ip + ":" + port, e);
                return e;
            }
        }
        throw new ApiException(ErrorCode.CONFLICT, "the KVM agent at " + ip + ":" + port + " is not enrolled with this "
                + "server, so it is not called.", "Reconnect the host with the agent's token: PUT /v1/hosts/{uuid}/actions "
                + "{\"reconnectHost\":{\"agentEnrollment\":\"<output of bin/aio-agent enrollment on that host>\"}}.");
    }

    /** Whether an agent at ip:port is enrolled with this server (so it can be called at all); no exception. */
    public boolean isEnrolled(String ip, int port) {
        if (byAddress.containsKey(ip + ":" + port)) return true;
        for (HostVO h : hosts.findByManagementIpAndAgentPort(ip, port)) {
            if (credentials.existsById(h.getUuid())) return true;
        }
        return false;
    }

    /**
     * The credentials in the database when the cached ones were refused: another management node may have
     * re-enrolled the host (its agent's secret rotated or the agent reinstalled). Null when the database holds the
     * same ones (the refusal stands); otherwise they replace the cached ones.
     */
    public AgentEndpoint reread(String ip, int port, AgentEndpoint refused) {
        byAddress.remove(ip + ":" + port, refused);
        AgentEndpoint now = at(ip, port);
        boolean same = java.util.Arrays.equals(now.certSha256(), refused.certSha256())
                && java.security.MessageDigest.isEqual(now.secret(), refused.secret());
        return same ? null : now;
    }

    /**
     * Another management node enrolled the host with its own key file: this node cannot call the agent until the key
     * is shared. A 503 that says so, not a 500: nothing was sent to the agent.
     */
    private byte[] openSecret(String ip, int port, String sealed) {
        try {
            return box.open(sealed);
        } catch (IllegalStateException e) {
            throw new ApiException(ErrorCode.AGENT_UNREACHABLE, "this management node cannot open the stored "
                    + "credentials of the KVM agent at " + ip + ":" + port + " (its " + SecretBox.KEY_FILE + " differs "
                    + "from the one of the node that enrolled the host), so the agent was not called.",
                    "Copy " + SecretBox.KEY_FILE + " from the data dir of the management node that enrolled the host "
                    + "to the data dir of every management node sharing the database (docs/operations.md), restart "
                    + "this node and retry.");
        }
    }

    /** Stores a host's new credentials (call inside the transaction that stores the host) and uses them from now on. */
    public void enrolled(String hostUuid, AgentEndpoint e) {
        credentials.save(new AgentCredentialVO(hostUuid, e.certSha256Hex(), box.seal(e.secret())));
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    byAddress.put(e.ip() + ":" + e.port(), e);
                }
            });
        } else {
            byAddress.put(e.ip() + ":" + e.port(), e);
        }
    }
}
