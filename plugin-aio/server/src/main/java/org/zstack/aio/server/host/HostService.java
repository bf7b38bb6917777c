package org.zstack.aio.server.host;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.retry.annotation.Retryable;
import org.springframework.stereotype.Service;
import org.zstack.aio.server.db.UnitOfWork;
import org.springframework.transaction.support.TransactionTemplate;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.HostConnectCmd;
import org.zstack.aio.agent.api.HostFactsRsp;
import org.zstack.aio.agent.api.StoragePathFacts;
import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.StorageKind;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.agent.api.trust.EnrollmentToken;
import org.zstack.aio.server.agent.AgentClient;
import org.zstack.aio.server.agent.AgentEndpoint;
import org.zstack.aio.server.agent.AgentEndpoints;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.api.Uuids;
import org.zstack.aio.server.audit.AuditEntry;
import org.zstack.aio.server.audit.AuditService;
import org.zstack.aio.server.inventory.HostRepository;
import org.zstack.aio.server.inventory.HostVO;
import org.zstack.aio.server.inventory.PrimaryStorageRepository;
import org.zstack.aio.server.inventory.PrimaryStorageVO;
import org.zstack.aio.server.query.QueryExecutor;
import org.zstack.aio.server.query.QueryReply;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.query.QuerySpec;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.zstack.aio.server.api.Bodies;

/** KVM hosts: connected through their agent, which probes the io capabilities the decision needs. */
@Service
public class HostService {

    private final HostRepository hosts;
    private final HostIoCapabilitiesRepository capabilities;
    private final PrimaryStorageRepository storages;
    private final AgentClient agent;
    private final AgentEndpoints endpoints;
    private final DiskIoModes ioModes;
    private final ObjectMapper json;
    private final TransactionTemplate tx;
    private final QueryReply query;
    private final AuditService audit;
    private static final QuerySpec<HostVO> QUERY = QuerySpec.of(HostVO.class, HostInventory.class, "createDate", "uuid");
    /** host + storage path pairs this server has registered with the host's agent since it started. */
    private final java.util.Set<String> registered = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public HostService(HostRepository hosts, HostIoCapabilitiesRepository capabilities, PrimaryStorageRepository storages,
                       AgentClient agent, AgentEndpoints endpoints, DiskIoModes ioModes, ObjectMapper json,
                       TransactionTemplate tx, QueryReply query, AuditService audit) {
        this.endpoints = endpoints;
        this.hosts = hosts;
        this.capabilities = capabilities;
        this.storages = storages;
        this.agent = agent;
        this.ioModes = ioModes;
        this.json = json;
        this.tx = tx;
        this.query = query;
        this.audit = audit;
    }

    public record IoCapabilities(String kernel, Integer ioUringDisabled, String qemu, Boolean qemuIoUring,
                                 String qemuIoUringError, Boolean qemuNative, String qemuNativeError, String libvirt,
                                 String libvirtUri, boolean ioUringUsable, String ioUringReason,
                                 List<StoragePathFacts> storagePaths, java.time.LocalDateTime lastProbeDate) {
    }

    @org.zstack.aio.server.api.ZStackInventory("org.zstack.kvm.KVMHostInventory")
    public record HostInventory(String uuid, String name, String managementIp, int agentPort, String status,
                                IoCapabilities ioCapabilities, java.time.LocalDateTime createDate,
                                java.time.LocalDateTime lastOpDate) {
    }

    /**
     * POST /v1/hosts/kvm: the token is checked, then the agent must answer over the channel the token pins
     * and authenticates; nothing is stored when either fails.
     */
    public HostInventory add(Caller caller, String name, String managementIp, int agentPort, String agentEnrollment) {
        AccountService.requireAdmin(caller, "add hosts");
        Bodies.requireName(name, "host");
        org.zstack.aio.server.api.Inputs.hostAddress(managementIp, "managementIp");
        AgentEndpoint endpoint = AgentEndpoint.of(managementIp, agentPort, token(agentEnrollment));
        String uuid = Uuids.random();
        HostFactsRsp facts;
        try {
            facts = agent.enroll(endpoint, AgentPaths.HOST_CONNECT, connectCmd(uuid), HostFactsRsp.class);
        } catch (ApiException e) {
            if (e.code() != ErrorCode.AGENT_UNREACHABLE && e.code() != ErrorCode.AGENT_FAILED) throw e;
            // adding: the address and port are what the caller just typed, so no agent there is bad input
            throw ApiException.badRequest("no KVM agent answers at " + managementIp + " port " + agentPort + ": "
                                          + e.description(), "Check managementIp and agentPort, and that bin/aio-agent"
                                          + " runs on that host; nothing was stored.");
        }
        return tx.execute(s -> {
            HostVO h = hosts.save(new HostVO(uuid, name, managementIp, agentPort));
            endpoints.enrolled(uuid, endpoint);
            HostIoCapabilitiesVO caps = new HostIoCapabilitiesVO(uuid);
            caps.update(facts, write(facts.storagePaths()));
            audit.record(caller, new AuditEntry("AddKVMHost", "HostVO", uuid, name, null, managementIp + ":" + agentPort));
            return inventory(h, capabilities.save(caps));
        });
    }

    /**
     * Probes again (reconnect): the facts are refreshed, the host's status follows the agent. With a token the
     * host is enrolled again (after the agent's secret was rotated or the agent reinstalled); running VMs are
     * not touched.
     */
    public HostInventory reconnect(Caller caller, String uuid, String agentEnrollment) {
        AccountService.requireAdmin(caller, "reconnect hosts");
        return reprobe(caller, uuid, agentEnrollment);
    }

    /** Probes the host's facts again and marks it Connected (the host tracker on a comeback; no new token). */
    public HostInventory reprobe(String uuid) {
        return reprobe(null, uuid, null);
    }

    /** @param caller the admin who asked (audited), or null for the host tracker (a comeback is no one's change) */
    private HostInventory reprobe(Caller caller, String uuid, String agentEnrollment) {
        HostVO h = find(uuid);
        AgentEndpoint endpoint = agentEnrollment == null ? null
                : AgentEndpoint.of(h.getManagementIp(), h.getAgentPort(), token(agentEnrollment));
        HostFactsRsp facts = endpoint == null ? probe(uuid, h.getManagementIp(), h.getAgentPort())
                : agent.enroll(endpoint, AgentPaths.HOST_CONNECT, connectCmd(uuid), HostFactsRsp.class);
        return tx.execute(s -> {
            if (endpoint != null) {
                endpoints.enrolled(uuid, endpoint);
            }
            HostIoCapabilitiesVO caps = capabilities.findById(uuid).orElseGet(() -> new HostIoCapabilitiesVO(uuid));
            caps.update(facts, write(facts.storagePaths()));
            HostVO host = hosts.findById(uuid).orElseThrow();
            if (caller != null) {
                audit.record(caller, new AuditEntry("ReconnectHost", "HostVO", uuid, host.getName(), host.getStatus(), "Connected"));
                hosts.endTrackingDeferral(uuid);
            }
            host.setStatus("Connected");
            return inventory(host, capabilities.save(caps));
        });
    }

    /** GET /v1/hosts with ZStack's query parameters (admin only). */
    public Map<String, Object> query(Caller caller, QueryRequest q) {
        AccountService.requireAdmin(caller, "list hosts");
        return query.answer(QUERY, q, QueryExecutor.Scope.all(), this::inventories);
    }

    /** Inventories of these hosts, their capabilities read in one query. */
    public List<HostInventory> inventories(List<HostVO> page) {
        Map<String, HostIoCapabilitiesVO> caps = new HashMap<>();
        capabilities.findAllById(page.stream().map(HostVO::getUuid).toList()).forEach(c -> caps.put(c.getHostUuid(), c));
        return page.stream().map(h -> inventory(h, caps.get(h.getUuid()))).toList();
    }

    /** The libvirt URI the host's agent reported at its last connect; null when never probed. */
    public String libvirtUri(String hostUuid) {
        return capabilities.findById(hostUuid).map(HostIoCapabilitiesVO::getLibvirtUri).orElse(null);
    }

    /**
     * GET /v1/hosts/{uuid}/io-facts: the host's facts as the one host-facts contract holds them, each storage path under
     * its primary storage (admin); every fact unknown, saying so, when the agent never reported any.
     */
    public HostIoFacts ioFacts(Caller caller, String uuid) {
        AccountService.requireAdmin(caller, "read hosts");
        find(uuid);
        return capabilities.findById(uuid).map(c -> c.toIoFacts(StoragePaths.byPath(storages.findAll())))
                .orElseGet(() -> HostIoFacts.unknown(uuid, "the host's agent never reported them"));
    }

    public HostInventory get(Caller caller, String uuid) {
        AccountService.requireAdmin(caller, "read hosts");
        HostVO h = find(uuid);
        return inventory(h, capabilities.findById(uuid).orElse(null));
    }

    /** A connected host to do work that any host can do (e.g. create an image on shared storage). */
    public HostVO anyConnected() {
        return hosts.findFirstByStatusOrderByCreateDateAscUuidAsc("Connected").orElseThrow(() -> ApiException.conflict(
                "no host is connected.", "Add a KVM host first, or name one with the system tag localStorage::hostUuid::<uuid>."));
    }

    /** A read, so it is repeated as a whole when the database connection is lost or a conflict aborts it. */
    @Retryable(interceptor = UnitOfWork.IDEMPOTENT)
    public HostVO find(String uuid) {
        Uuids.require(uuid, "host");
        return hosts.findById(uuid).orElseThrow(() -> ApiException.notFound("host", uuid));
    }

    private HostFactsRsp probe(String hostUuid, String ip, int port) {
        return agent.call(ip, port, AgentPaths.HOST_CONNECT, connectCmd(hostUuid), HostFactsRsp.class);
    }

    /** Connect registers every file and block storage with the agent: the only paths it will then touch. */
    private HostConnectCmd connectCmd(String hostUuid) {
        return new HostConnectCmd(hostUuid, localStorageUrls());
    }

    /** The urls of every file and block storage: the paths on a host an agent is given (never network storage). */
    public List<String> localStorageUrls() {
        return storages.findAll().stream()
                .filter(p -> ioModes.kindOf(p.getType()) != StorageKind.NETWORK)
                .map(PrimaryStorageVO::getUrl).toList();
    }

    /**
     * Registers a storage added after the host connected (the agent refuses paths it was not given), by
     * connecting again. Nothing is stored: the call that needs it may still be refused, and a refused call
     * changes nothing; the registration is remembered in memory (the agent keeps it on its side).
     */
    public void ensureStorageRegistered(HostVO host, PrimaryStorageVO storage) {
        if (ioModes.kindOf(storage.getType()) == StorageKind.NETWORK) {
            return; // not a path on the host
        }
        String url = java.nio.file.Path.of(storage.getUrl()).toString();
        String key = host.getUuid() + " " + url;
        if (registered.contains(key)) {
            return;
        }
        boolean known = capabilities.findById(host.getUuid())
                .map(c -> c.getStoragePaths() != null && read(c.getStoragePaths()).stream()
                        .anyMatch(p -> url.equals(p.path()) && (p.error() == null || !p.error().startsWith("refusing"))))
                .orElse(false);
        if (!known) {
            probe(host.getUuid(), host.getManagementIp(), host.getAgentPort());
        }
        registered.add(key);
    }

    private static EnrollmentToken token(String text) {
        EnrollmentToken t;
        try {
            t = EnrollmentToken.parse(text);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage() + ".", "Run 'bin/aio-agent enrollment' on the host and send "
                    + "its one-line output exactly as printed, whole and with nothing around it, as params.agentEnrollment.");
        }
        if (t.expired(java.time.Instant.now())) {
            throw ApiException.badRequest("the agent enrollment token expired at " + t.expiresAt() + ".",
                    "Print a new one with 'bin/aio-agent enrollment' on the host.");
        }
        return t;
    }

    private HostInventory inventory(HostVO h, HostIoCapabilitiesVO c) {
        IoCapabilities io = null;
        if (c != null) {
            Check blocker = ioUringBlocker(c);
            io = new IoCapabilities(c.getKernelVersion(), c.getIoUringDisabled(), c.getQemuVersion(), c.getQemuIoUring(),
                    c.getQemuIoUringError(), c.getQemuNative(), c.getQemuNativeError(), c.getLibvirtVersion(),
                    c.getLibvirtUri(), blocker == null,
                    blocker == null ? "io_uring passes every host check here." : blocker.message(),
                    c.getStoragePaths() == null ? List.of() : read(c.getStoragePaths()),
                    c.getLastProbeDate());
        }
        return new HostInventory(h.getUuid(), h.getName(), h.getManagementIp(), h.getAgentPort(), h.getStatus(), io,
                h.getCreateDate(), h.getLastOpDate());
    }

    /** The first io_uring check this host fails, as the core judges the host alone; null when none fails. */
    private Check ioUringBlocker(HostIoCapabilitiesVO c) {
        return ioModes.hostCheck(IoMode.IO_URING, c.toIoFacts(Map.of())).firstFailure();
    }

    private String write(List<StoragePathFacts> paths) {
        try {
            return json.writeValueAsString(paths == null ? List.of() : paths);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<StoragePathFacts> read(String s) {
        try {
            return json.readValue(s, new TypeReference<>() { });
        } catch (JsonProcessingException e) {
            return List.of();
        }
    }
}
