package org.zstack.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import org.assertj.core.groups.Tuple;

/** Each kind of call against a fake server: method, path, Authorization, body, and the typed result. */
class ActionCallTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SESSION = "5e55f1a0c0de4b6f8a7e000000000001";
    private static final String VOL = "0f0e0d0c0b0a49988776655443322110";
    private static final String HOST = "aaaabbbbccccddddeeeeffff00001111";
    private static final String VM = "1234567890abcdef1234567890abcdef";

    private FakeServer server;
    private ZSClient client;

    @BeforeEach
    void start() throws Exception {
        server = new FakeServer();
        client = new ZSClient(server.baseUrl()).withSession(SESSION);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s);
    }

    @Test
    void logInSendsNoSessionAndWrapsTheParameters() throws Exception {
        server.answer(200, "{\"inventory\":{\"uuid\":\"" + SESSION + "\",\"accountUuid\":\"acc\",\"expiredDate\":\"2030-01-01T00:00:00Z\"}}");
        LogInByAccountAction a = new LogInByAccountAction();
        a.accountName = "admin";
        a.password = "secret";

        LogInByAccountResult r = a.call(new ZSClient(server.baseUrl()));

        FakeServer.Recorded req = server.only();
        assertThat(req.method()).isEqualTo("PUT");
        assertThat(req.pathAndQuery()).isEqualTo("/v1/accounts/login");
        assertThat(req.authorization()).isNull();
        assertThat(req.contentType()).startsWith("application/json");
        assertThat(json(req.body())).isEqualTo(json("{\"logInByAccount\":{\"accountName\":\"admin\",\"password\":\"secret\"}}"));
        assertThat(r.inventory.uuid).isEqualTo(SESSION);
        assertThat(r.inventory.accountUuid).isEqualTo("acc");
        assertThat(r.inventory.expiredDate).isEqualTo("2030-01-01T00:00:00Z");
    }

    @Test
    void logOutDeletesTheSessionWithoutABody() {
        LogOutAction a = new LogOutAction();
        a.sessionUuid = SESSION;
        assertThat(a.call(client)).isNotNull();
        FakeServer.Recorded req = server.only();
        assertThat(req.method()).isEqualTo("DELETE");
        assertThat(req.pathAndQuery()).isEqualTo("/v1/accounts/sessions/" + SESSION);
        assertThat(req.authorization()).isEqualTo("OAuth " + SESSION);
        assertThat(req.body()).isEmpty();
    }

    @Test
    void createAccountPostsParams() throws Exception {
        server.answer(200, "{\"inventory\":{\"uuid\":\"u1\",\"name\":\"tenant1\",\"type\":\"Normal\"}}");
        CreateAccountAction a = new CreateAccountAction();
        a.name = "tenant1";
        a.password = "pw";
        CreateAccountResult r = a.call(client);
        assertThat(server.only().method()).isEqualTo("POST");
        assertThat(server.only().pathAndQuery()).isEqualTo("/v1/accounts");
        assertThat(json(server.only().body())).isEqualTo(json("{\"params\":{\"name\":\"tenant1\",\"password\":\"pw\"}}"));
        assertThat(r.inventory.type).isEqualTo("Normal");
    }

    @Test
    void queryActionsSendConditionsPagingSortCountAndFields() {
        server.answer(200, "{\"inventories\":[{\"uuid\":\"" + VOL + "\",\"name\":\"a b\"}],\"total\":7}");
        QueryVolumeAction q = new QueryVolumeAction();
        q.conditions = java.util.List.of("primaryStorageUuid=ps1", "size>=1024", "name~=a b%", "vmInstanceUuid=null");
        q.limit = 10;
        q.start = 20;
        q.sortBy = "createDate";
        q.sortDirection = "desc";
        q.replyWithCount = true;
        q.fields = java.util.List.of("uuid", "name");
        QueryVolumeResult r = q.call(client);
        assertThat(server.only().pathAndQuery()).isEqualTo("/v1/volumes?q=primaryStorageUuid%3Dps1&q=size%3E%3D1024"
                                                           + "&q=name%7E%3Da+b%25&q=vmInstanceUuid%3Dnull&limit=10&start=20"
                                                           + "&replyWithCount=true&sort=-createDate&fields=uuid%2Cname");
        assertThat(r.total).isEqualTo(7L);
        assertThat(r.inventories.get(0).name).isEqualTo("a b");

        QueryVolumeAction ascending = new QueryVolumeAction();
        ascending.sortBy = "name";
        ascending.count = true;
        ascending.call(client);
        assertThat(server.requests().get(1).pathAndQuery()).isEqualTo("/v1/volumes?count=true&sort=%2Bname");

        QueryVolumeAction wrong = new QueryVolumeAction();
        wrong.sortBy = "name";
        wrong.sortDirection = "up";
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> wrong.call(client))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sortDirection");
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void updateGlobalConfig() throws Exception {
        server.answer(200, "{\"inventory\":{\"category\":\"kvm\",\"name\":\"vm.ioMode\",\"value\":\"native\","
                           + "\"defaultValue\":\"threads\",\"description\":\"d\",\"validValues\":[\"threads\",\"native\",\"io_uring\",\"auto\"],"
                           + "\"bindResourceTypes\":[\"VolumeVO\",\"PrimaryStorageVO\"]}}");
        UpdateGlobalConfigAction a = new UpdateGlobalConfigAction();
        a.category = "kvm";
        a.name = "vm.ioMode";
        a.value = "native";

        UpdateGlobalConfigResult r = a.call(client);

        FakeServer.Recorded req = server.only();
        assertThat(req.method()).isEqualTo("PUT");
        assertThat(req.pathAndQuery()).isEqualTo("/v1/global-configurations/kvm/vm.ioMode/actions");
        assertThat(req.authorization()).isEqualTo("OAuth " + SESSION);
        assertThat(json(req.body())).isEqualTo(json("{\"updateGlobalConfig\":{\"value\":\"native\"}}"));
        assertThat(r.inventory.value).isEqualTo("native");
        assertThat(r.inventory.defaultValue).isEqualTo("threads");
        assertThat(r.inventory.validValues).containsExactly("threads", "native", "io_uring", "auto");
        assertThat(r.inventory.bindResourceTypes).containsExactly("VolumeVO", "PrimaryStorageVO");
    }

    @Test
    void getAndQueryGlobalConfig() {
        server.answer(200, "{\"inventory\":{\"category\":\"kvm\",\"name\":\"vm.ioMode\",\"value\":\"threads\"}}");
        server.answer(200, "{\"inventories\":[{\"category\":\"kvm\",\"name\":\"vm.ioMode\"},{\"category\":\"kvm\",\"name\":\"vm.ioMode.onUnsatisfied\"}]}");
        GetGlobalConfigAction get = new GetGlobalConfigAction();
        get.category = "kvm";
        get.name = "vm.ioMode";
        assertThat(get.call(client).inventory.value).isEqualTo("threads");
        assertThat(new QueryGlobalConfigAction().call(client).inventories).extracting(i -> i.name)
                .containsExactly("vm.ioMode", "vm.ioMode.onUnsatisfied");
        assertThat(server.requests()).extracting(FakeServer.Recorded::method, FakeServer.Recorded::pathAndQuery)
                .containsExactly(Tuple.tuple("GET", "/v1/global-configurations/kvm/vm.ioMode"),
                        Tuple.tuple("GET", "/v1/global-configurations"));
        assertThat(server.requests()).allSatisfy(r -> assertThat(r.body()).isEmpty());
    }

    @Test
    void updateResourceConfigWithTheActionsOwnSessionOverridingTheClients() throws Exception {
        server.answer(200, "{\"inventory\":{\"resourceUuid\":\"" + VOL + "\",\"resourceType\":\"VolumeVO\","
                           + "\"category\":\"kvm\",\"name\":\"vm.ioMode\",\"value\":\"io_uring\"}}");
        UpdateResourceConfigAction a = new UpdateResourceConfigAction();
        a.category = "kvm";
        a.name = "vm.ioMode";
        a.resourceUuid = VOL;
        a.value = "io_uring";
        a.sessionId = "tenant-session";

        UpdateResourceConfigResult r = a.call(client);

        FakeServer.Recorded req = server.only();
        assertThat(req.method()).isEqualTo("PUT");
        assertThat(req.pathAndQuery()).isEqualTo("/v1/resource-configurations/kvm/vm.ioMode/" + VOL + "/actions");
        assertThat(req.authorization()).isEqualTo("OAuth tenant-session");
        assertThat(json(req.body())).isEqualTo(json("{\"updateResourceConfig\":{\"value\":\"io_uring\"}}"));
        assertThat(r.inventory.resourceType).isEqualTo("VolumeVO");
        assertThat(r.inventory.value).isEqualTo("io_uring");
    }

    @Test
    void deleteResourceConfigAcceptsAnEmptyAnswer() {
        server.answer(200, "application/json", "", 0);
        DeleteResourceConfigAction a = new DeleteResourceConfigAction();
        a.category = "kvm";
        a.name = "vm.ioMode";
        a.resourceUuid = VOL;
        assertThat(a.call(client)).isNotNull();
        assertThat(server.only().method()).isEqualTo("DELETE");
        assertThat(server.only().pathAndQuery()).isEqualTo("/v1/resource-configurations/kvm/vm.ioMode/" + VOL);
        assertThat(server.only().body()).isEmpty();
    }

    @Test
    void getResourceConfigReadsValueAndLevelsInOrder() {
        server.answer(200, "{\"value\":\"native\",\"effectiveConfigs\":["
                           + "{\"resourceUuid\":\"" + VOL + "\",\"resourceType\":\"VolumeVO\",\"value\":\"native\"},"
                           + "{\"resourceUuid\":\"ps1\",\"resourceType\":\"PrimaryStorageVO\",\"value\":\"io_uring\"},"
                           + "{\"resourceUuid\":null,\"resourceType\":\"global\",\"value\":\"threads\"}]}");
        GetResourceConfigAction a = new GetResourceConfigAction();
        a.resourceUuid = VOL;
        a.category = "kvm";
        a.name = "vm.ioMode";

        GetResourceConfigResult r = a.call(client);

        assertThat(server.only().method()).isEqualTo("GET");
        assertThat(server.only().pathAndQuery()).isEqualTo("/v1/resource-configurations/" + VOL + "/kvm/vm.ioMode");
        assertThat(r.value).isEqualTo("native");
        assertThat(r.effectiveConfigs).extracting(e -> e.resourceType).containsExactly("VolumeVO", "PrimaryStorageVO", "global");
        assertThat(r.effectiveConfigs).extracting(e -> e.value).containsExactly("native", "io_uring", "threads");
        assertThat(r.effectiveConfigs.get(2).resourceUuid).isNull();
    }

    @Test
    void getVolumeIoModeReadsTheBareDecisionAndSendsHostAsQuery() {
        String decision = "{\"volumeUuid\":\"" + VOL + "\",\"hostUuid\":\"" + HOST + "\",\"requested\":\"native\","
                          + "\"source\":\"VolumeVO\",\"effective\":null,\"refused\":true,\"checks\":["
                          + "{\"mode\":\"native\",\"check\":\"cache-mode\",\"passed\":false,\"message\":\"cache=writeback\"}],"
                          + "\"reason\":\"native needs cache=none.\",\"someNewField\":42}";
        server.answer(200, decision).answer(200, decision);
        GetVolumeIoModeAction a = new GetVolumeIoModeAction();
        a.uuid = VOL;
        a.hostUuid = HOST;

        GetVolumeIoModeResult r = a.call(client);
        a.hostUuid = null;
        a.call(client);

        assertThat(server.requests().get(0).pathAndQuery()).isEqualTo("/v1/volumes/" + VOL + "/io-mode?hostUuid=" + HOST);
        assertThat(server.requests().get(1).pathAndQuery()).isEqualTo("/v1/volumes/" + VOL + "/io-mode");
        assertThat(server.requests()).allSatisfy(req -> assertThat(req.method()).isEqualTo("GET"));
        IoModeDecisionInventory d = r.decision;
        assertThat(d.volumeUuid).isEqualTo(VOL);
        assertThat(d.hostUuid).isEqualTo(HOST);
        assertThat(d.requested).isEqualTo("native");
        assertThat(d.source).isEqualTo("VolumeVO");
        assertThat(d.effective).isNull();
        assertThat(d.effectiveMode()).isNull();
        assertThat(d.refused).isTrue();
        assertThat(d.reason).isEqualTo("native needs cache=none.");
        assertThat(d.checks).singleElement().satisfies(c -> {
            assertThat(c.mode).isEqualTo("native");
            assertThat(c.check).isEqualTo("cache-mode");
            assertThat(c.passed).isFalse();
            assertThat(c.message).isEqualTo("cache=writeback");
        });
    }

    @Test
    void hostsWithIoCapabilities() throws Exception {
        String host = "{\"uuid\":\"" + HOST + "\",\"name\":\"h1\",\"managementIp\":\"10.0.0.2\",\"agentPort\":7070,"
                      + "\"status\":\"Connected\",\"ioCapabilities\":{\"kernel\":\"6.1.0\",\"ioUringDisabled\":0,"
                      + "\"qemu\":\"7.2.0\",\"qemuIoUring\":true,\"qemuNative\":true,\"libvirt\":\"9.0.0\","
                      + "\"ioUringUsable\":true,\"ioUringReason\":\"ok\",\"storagePaths\":[{\"path\":\"/ps\",\"oDirect\":true,"
                      + "\"error\":null}],\"lastProbeDate\":\"2025-01-01T00:00:00Z\"}}";
        server.answer(200, "{\"inventory\":" + host + "}")
                .answer(200, "{\"inventory\":" + host + "}")
                .answer(200, "{\"inventories\":[" + host + "]}")
                .answer(200, "{\"inventory\":" + host + "}");
        AddKVMHostAction add = new AddKVMHostAction();
        add.name = "h1";
        add.managementIp = "10.0.0.2";
        add.agentEnrollment = "aio1.token";
        HostInventory added = add.call(client).inventory;
        add.agentPort = 7071;
        add.call(client);
        assertThat(new QueryHostAction().call(client).inventories).hasSize(1);
        ReconnectHostAction reconnect = new ReconnectHostAction();
        reconnect.uuid = HOST;
        reconnect.call(client);

        List<FakeServer.Recorded> reqs = server.requests();
        assertThat(reqs.get(0).method()).isEqualTo("POST");
        assertThat(reqs.get(0).pathAndQuery()).isEqualTo("/v1/hosts/kvm");
        assertThat(json(reqs.get(0).body())).isEqualTo(
                json("{\"params\":{\"name\":\"h1\",\"managementIp\":\"10.0.0.2\",\"agentEnrollment\":\"aio1.token\"}}"));
        assertThat(json(reqs.get(1).body())).isEqualTo(json("{\"params\":{\"name\":\"h1\",\"managementIp\":\"10.0.0.2\","
                + "\"agentPort\":7071,\"agentEnrollment\":\"aio1.token\"}}"));
        assertThat(reqs.get(2).pathAndQuery()).isEqualTo("/v1/hosts");
        assertThat(reqs.get(3).method()).isEqualTo("PUT");
        assertThat(reqs.get(3).pathAndQuery()).isEqualTo("/v1/hosts/" + HOST + "/actions");
        assertThat(json(reqs.get(3).body())).isEqualTo(json("{\"reconnectHost\":{}}"));
        HostIoCapabilitiesInventory caps = added.ioCapabilities;
        assertThat(added.agentPort).isEqualTo(7070);
        assertThat(caps.kernel).isEqualTo("6.1.0");
        assertThat(caps.ioUringDisabled).isZero();
        assertThat(caps.qemuIoUring).isTrue();
        assertThat(caps.ioUringUsable).isTrue();
        assertThat(caps.storagePaths).singleElement().satisfies(p -> {
            assertThat(p.path).isEqualTo("/ps");
            assertThat(p.oDirect).isTrue();
        });
    }

    @Test
    void primaryStorage() throws Exception {
        server.answer(200, "{\"inventory\":{\"uuid\":\"ps1\",\"name\":\"nfs\",\"type\":\"NFS\",\"url\":\"/mnt/nfs\","
                           + "\"status\":\"Connected\",\"storageKind\":\"file\",\"volumeCount\":3}}");
        AddPrimaryStorageAction a = new AddPrimaryStorageAction();
        a.name = "nfs";
        a.type = "NFS";
        a.url = "/mnt/nfs";
        PrimaryStorageInventory ps = a.call(client).inventory;
        assertThat(json(server.only().body())).isEqualTo(json("{\"params\":{\"name\":\"nfs\",\"type\":\"NFS\",\"url\":\"/mnt/nfs\"}}"));
        assertThat(server.only().pathAndQuery()).isEqualTo("/v1/primary-storage");
        assertThat(ps.storageKind).isEqualTo("file");
        assertThat(ps.volumeCount).isEqualTo(3L);

        GetPrimaryStorageAction get = new GetPrimaryStorageAction();
        get.uuid = "ps1";
        get.call(client);
        new QueryPrimaryStorageAction().call(client);
        assertThat(server.requests().subList(1, 3)).extracting(FakeServer.Recorded::pathAndQuery)
                .containsExactly("/v1/primary-storage/ps1", "/v1/primary-storage");
    }

    @Test
    void createDataVolumeSendsNumbersAndLeavesOutUnsetOptionals() throws Exception {
        server.answer(200, "{\"inventory\":{\"uuid\":\"" + VOL + "\",\"name\":\"d1\",\"format\":\"qcow2\",\"size\":1073741824,"
                           + "\"actualSize\":null,\"preallocation\":\"none\",\"cacheMode\":\"none\",\"deviceId\":null,"
                           + "\"ioModeDecision\":null}}");
        CreateDataVolumeAction a = new CreateDataVolumeAction();
        a.name = "d1";
        a.size = 1L << 30;
        a.format = "qcow2";
        a.primaryStorageUuid = "ps1";
        a.hostUuid = HOST;
        VolumeInventory v = a.call(client).inventory;
        assertThat(server.only().pathAndQuery()).isEqualTo("/v1/volumes/data");
        assertThat(json(server.only().body())).isEqualTo(json("{\"params\":{\"name\":\"d1\",\"size\":1073741824,"
                                                              + "\"format\":\"qcow2\",\"primaryStorageUuid\":\"ps1\",\"hostUuid\":\"" + HOST + "\"}}"));
        assertThat(v.size).isEqualTo(1L << 30);
        assertThat(v.ioModeDecision).isNull();
    }

    @Test
    void volumesReadWithTheirRecordedDecision() {
        server.answer(200, "{\"inventories\":[{\"uuid\":\"" + VOL + "\",\"ioModeDecision\":{\"volumeUuid\":\"" + VOL + "\","
                           + "\"effective\":\"threads\",\"refused\":false,\"appliedIo\":\"threads\",\"appliedCache\":\"none\","
                           + "\"attempts\":[{\"io\":\"io_uring\",\"error\":\"unsupported\"}],\"decidedAt\":\"t\",\"checks\":[]}}]}");
        server.answer(200, "{\"inventory\":{\"uuid\":\"" + VOL + "\"}}");
        VolumeInventory v = new QueryVolumeAction().call(client).inventories.get(0);
        assertThat(v.ioModeDecision.appliedIo).isEqualTo("threads");
        assertThat(v.ioModeDecision.attempts).singleElement().satisfies(t -> {
            assertThat(t.io).isEqualTo("io_uring");
            assertThat(t.error).isEqualTo("unsupported");
        });
        GetVolumeAction get = new GetVolumeAction();
        get.uuid = VOL;
        assertThat(get.call(client).inventory.uuid).isEqualTo(VOL);
        assertThat(server.requests()).extracting(FakeServer.Recorded::pathAndQuery)
                .containsExactly("/v1/volumes", "/v1/volumes/" + VOL);
    }

    @Test
    void vmLifecycle() throws Exception {
        String vm = "{\"uuid\":\"" + VM + "\",\"name\":\"vm1\",\"state\":\"%s\",\"hostUuid\":\"" + HOST + "\","
                    + "\"volumeUuids\":[\"" + VOL + "\"],\"memorySize\":1073741824,\"cpuNum\":2}";
        server.answer(200, "{\"inventory\":" + vm.formatted("Stopped") + "}")
                .answer(200, "{\"inventory\":" + vm.formatted("Running") + ",\"ioModeDecisions\":[{\"volumeUuid\":\""
                             + VOL + "\",\"requested\":\"auto\",\"effective\":\"io_uring\",\"refused\":false,"
                             + "\"appliedIo\":\"io_uring\",\"vmInstanceUuid\":\"" + VM + "\",\"checks\":[]}]}")
                .answer(200, "{\"inventory\":" + vm.formatted("Stopped") + "}")
                .answer(200, "{\"inventories\":[" + vm.formatted("Stopped") + "]}")
                .answer(200, "{\"inventory\":" + vm.formatted("Stopped") + "}");
        CreateVmInstanceAction create = new CreateVmInstanceAction();
        create.name = "vm1";
        create.hostUuid = HOST;
        create.memorySize = 1L << 30;
        create.cpuNum = 2;
        create.volumeUuids = List.of(VOL);
        assertThat(create.call(client).inventory.state).isEqualTo("Stopped");

        StartVmInstanceAction start = new StartVmInstanceAction();
        start.uuid = VM;
        StartVmInstanceResult started = start.call(client);
        assertThat(started.inventory.state).isEqualTo("Running");
        assertThat(started.ioModeDecisions).singleElement().satisfies(d -> {
            assertThat(d.effective).isEqualTo("io_uring");
            assertThat(d.appliedIo).isEqualTo("io_uring");
            assertThat(d.vmInstanceUuid).isEqualTo(VM);
        });

        StopVmInstanceAction stop = new StopVmInstanceAction();
        stop.uuid = VM;
        assertThat(stop.call(client).inventory.state).isEqualTo("Stopped");
        assertThat(new QueryVmInstanceAction().call(client).inventories.get(0).volumeUuids).containsExactly(VOL);
        GetVmInstanceAction get = new GetVmInstanceAction();
        get.uuid = VM;
        assertThat(get.call(client).inventory.cpuNum).isEqualTo(2);

        List<FakeServer.Recorded> reqs = server.requests();
        assertThat(reqs.get(0).pathAndQuery()).isEqualTo("/v1/vm-instances");
        assertThat(json(reqs.get(0).body())).isEqualTo(json("{\"params\":{\"name\":\"vm1\",\"hostUuid\":\"" + HOST + "\","
                                                           + "\"memorySize\":1073741824,\"cpuNum\":2,\"volumeUuids\":[\"" + VOL + "\"]}}"));
        assertThat(reqs.get(1).method()).isEqualTo("PUT");
        assertThat(reqs.get(1).pathAndQuery()).isEqualTo("/v1/vm-instances/" + VM + "/actions");
        assertThat(json(reqs.get(1).body())).isEqualTo(json("{\"startVmInstance\":{}}"));
        assertThat(reqs.get(2).pathAndQuery()).isEqualTo("/v1/vm-instances/" + VM + "/actions");
        assertThat(json(reqs.get(2).body())).isEqualTo(json("{\"stopVmInstance\":{}}"));
        assertThat(reqs.get(3).pathAndQuery()).isEqualTo("/v1/vm-instances");
        assertThat(reqs.get(4).pathAndQuery()).isEqualTo("/v1/vm-instances/" + VM);
    }

    @Test
    void attachPostsToTheVolumeVmPathWithoutABody() {
        server.answer(200, "{\"inventory\":{\"uuid\":\"" + VOL + "\",\"vmInstanceUuid\":\"" + VM + "\",\"deviceId\":1},"
                           + "\"ioModeDecision\":{\"volumeUuid\":\"" + VOL + "\",\"effective\":\"native\",\"refused\":false,\"checks\":[]}}");
        AttachDataVolumeToVmAction a = new AttachDataVolumeToVmAction();
        a.volumeUuid = VOL;
        a.vmUuid = VM;
        AttachDataVolumeToVmResult r = a.call(client);
        assertThat(server.only().method()).isEqualTo("POST");
        assertThat(server.only().pathAndQuery()).isEqualTo("/v1/volumes/" + VOL + "/vm-instances/" + VM);
        assertThat(server.only().body()).isEmpty();
        assertThat(server.only().authorization()).isEqualTo("OAuth " + SESSION);
        assertThat(r.inventory.vmInstanceUuid).isEqualTo(VM);
        assertThat(r.inventory.deviceId).isEqualTo(1);
        assertThat(r.ioModeDecision.effective).isEqualTo("native");
    }

    @Test
    void pathValuesAreEncodedAsOneSegment() {
        GetVolumeAction a = new GetVolumeAction();
        a.uuid = "a b/../c?d";
        a.call(client);
        assertThat(server.only().pathAndQuery()).isEqualTo("/v1/volumes/a%20b%2F..%2Fc%3Fd");
    }

    @Test
    void configValuesAreSentAsJsonStringsVerbatim() throws Exception {
        UpdateResourceConfigAction a = new UpdateResourceConfigAction();
        a.category = "kvm";
        a.name = "vm.ioMode";
        a.resourceUuid = VOL;
        a.value = "native ";
        a.call(client);
        assertThat(json(server.only().body()).get("updateResourceConfig").get("value").isTextual()).isTrue();
        assertThat(json(server.only().body()).get("updateResourceConfig").get("value").textValue()).isEqualTo("native ");
    }
}
