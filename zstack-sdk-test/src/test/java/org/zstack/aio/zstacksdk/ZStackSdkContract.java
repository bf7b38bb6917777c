package org.zstack.aio.zstacksdk;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;
import org.zstack.sdk.AccountInventory;
import org.zstack.sdk.AttachDataVolumeToVmAction;
import org.zstack.sdk.ReconnectHostAction;
import org.zstack.sdk.AddKVMHostAction;
import org.zstack.sdk.CreateAccountAction;
import org.zstack.sdk.CreateDataVolumeAction;
import org.zstack.sdk.DeleteResourceConfigAction;
import org.zstack.sdk.GetResourceConfigAction;
import org.zstack.sdk.GlobalConfigInventory;
import org.zstack.sdk.HostInventory;
import org.zstack.sdk.KVMHostInventory;
import org.zstack.sdk.LogInByAccountAction;
import org.zstack.sdk.LogOutAction;
import org.zstack.sdk.PrimaryStorageInventory;
import org.zstack.sdk.QueryAccountAction;
import org.zstack.sdk.QueryGlobalConfigAction;
import org.zstack.sdk.QueryHostAction;
import org.zstack.sdk.QueryPrimaryStorageAction;
import org.zstack.sdk.QueryResourceConfigAction;
import org.zstack.sdk.QueryVmInstanceAction;
import org.zstack.sdk.QueryVolumeAction;
import org.zstack.sdk.ResourceConfigInventory;
import org.zstack.sdk.GetVmMigrationCandidateHostsAction;
import org.zstack.sdk.MigrateVmAction;
import org.zstack.sdk.StartVmInstanceAction;
import org.zstack.sdk.StopVmInstanceAction;
import org.zstack.sdk.UpdateGlobalConfigAction;
import org.zstack.sdk.UpdateResourceConfigAction;
import org.zstack.sdk.VmInstanceInventory;
import org.zstack.sdk.VolumeInventory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ZStack's own Java SDK (5.2.0, built unchanged from ZStack's source) against a real plugin-aio server: every call
 * under test is a ZStack SDK action, read back through the SDK's typed classes. Run against H2 and MariaDB.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ZStackSdkContract {

    static final long MIB = 1L << 20;

    TestDatabase db;
    RunningServer server;
    ZStackSdk sdk;
    String admin;
    String psA;
    String psB;
    String psC;
    String host;
    String alpha;
    String beta;
    String gamma;
    String vmWithAlpha;

    abstract TestDatabase database() throws Exception;

    abstract Map<String, String> serverSettings();

    /** The agent port of the host the VMs run on. */
    abstract int agentPort() throws Exception;

    /** The port {@link #agentPort()} gave (it starts the agent: called once). */
    int agentPortInUse;

    /** That agent's enrollment token. */
    abstract String agentEnrollment();

    /** Whether this run's VMs are real QEMU processes (then each start/stop is checked in /proc). */
    abstract void assertQemu(String vmUuid, boolean running);

    @BeforeAll
    void boot() throws Exception {
        db = database();
        server = RunningServer.start(db, serverSettings());
        sdk = new ZStackSdk(server);
        admin = sdk.admin();
        psA = sdk.primaryStorage(admin, "ps-a", "LocalStorage", Storage.dir("zs-a"));
        psB = sdk.primaryStorage(admin, "ps-b", "LocalStorage", Storage.dir("zs-b"));
        psC = sdk.primaryStorage(admin, "ps-c", "LocalStorage", Storage.dir("zs-c"));
        agentPortInUse = agentPort();
        host = addKvmHost("kvm-1", agentPortInUse, agentEnrollment());
        alpha = createVolume("alpha", 16 * MIB, psA, "volumeProvisioningStrategy::ThinProvisioning").uuid;
        beta = createVolume("beta", 32 * MIB, psA, "volumeProvisioningStrategy::ThickProvisioning").uuid;
        gamma = createVolume("gamma", 48 * MIB, psB).uuid;
        vmWithAlpha = sdk.vm(admin, "vm-alpha", host, alpha);
    }

    @AfterAll
    void shutdown() throws Exception {
        if (server != null) server.close();
        if (db != null) db.close();
    }

    /** ZStack's own AddKVMHostAction: the agent's token and port travel as system tags (the action has no field). */
    String addKvmHost(String name, int port, String token) {
        AddKVMHostAction a = new AddKVMHostAction();
        a.name = name;
        a.managementIp = "127.0.0.1";
        a.username = "root";          // required by ZStack's action; plugin-aio deploys no agent over SSH
        a.password = "not-used";
        a.clusterUuid = "0f3e5a2b6c7d4e8f9a0b1c2d3e4f5a6b";
        a.systemTags = new ArrayList<>(List.of("agentEnrollment::" + token, "agentPort::" + port));
        a.sessionId = admin;
        AddKVMHostAction.Result r = a.call();
        assertThat(r.error).as("%s", describe(r.error)).isNull();
        assertThat(r.value.getInventory().getStatus()).isEqualTo("Connected");
        return r.value.getInventory().getUuid();
    }

    VolumeInventory createVolume(String name, long size, String ps, String... tags) {
        CreateDataVolumeAction a = new CreateDataVolumeAction();
        a.name = name;
        a.diskSize = size;
        a.primaryStorageUuid = ps;
        a.systemTags = new ArrayList<>(List.of("localStorage::hostUuid::" + host));
        a.systemTags.addAll(Arrays.asList(tags));
        a.sessionId = admin;
        CreateDataVolumeAction.Result r = a.call();
        assertThat(r.error).as("create %s", name).isNull();
        return r.value.inventory;
    }

    // ---- login and logout

    @Test
    void loginTakesThePasswordAsTypedOrAsItsSha512HexAndAnswersZonedDates() throws Exception {
        LogInByAccountAction plain = new LogInByAccountAction();
        plain.accountName = "admin";
        plain.password = RunningServer.ADMIN_PASSWORD;
        LogInByAccountAction.Result p = plain.call();
        assertThat(p.error).isNull();
        assertThat(p.value.getInventory().getExpiredDate().getTime()).isGreaterThan(System.currentTimeMillis());

        LogInByAccountAction hashed = new LogInByAccountAction();
        hashed.accountName = "admin";
        hashed.password = ZStackSdk.sha512Hex(RunningServer.ADMIN_PASSWORD);
        LogInByAccountAction.Result h = hashed.call();
        assertThat(h.error).isNull();
        assertThat(h.value.getInventory().getUuid()).isNotEqualTo(p.value.getInventory().getUuid()).hasSize(32);

        LogInByAccountAction wrong = new LogInByAccountAction();
        wrong.accountName = "admin";
        wrong.password = ZStackSdk.sha512Hex("not-the-password");
        ZStackSdk.assertHttpError(wrong.call().error, 401, "AIO.1100", "wrong account name or password");
    }

    @Test
    void logOutWithTheSessionInThePathEndsTheSession() {
        String s = sdk.admin();
        QueryVolumeAction before = volumeQuery(s);
        assertThat(before.call().error).isNull();

        LogOutAction out = new LogOutAction();
        out.sessionUuid = s;
        assertThat(out.call().error).isNull();

        ZStackSdk.assertHttpError(volumeQuery(s).call().error, 401, "AIO.1100", "session");
    }

    // ---- queries

    @Test
    void everyQueryOperatorSelectsExactlyTheMatchingVolumes() {
        assertThat(volumes("primaryStorageUuid=" + psA)).containsExactlyInAnyOrder(alpha, beta);
        assertThat(volumes("primaryStorageUuid!=" + psA)).containsExactlyInAnyOrder(gamma);
        assertThat(volumes("size>" + 16 * MIB)).containsExactlyInAnyOrder(beta, gamma);
        assertThat(volumes("size<" + 32 * MIB)).containsExactlyInAnyOrder(alpha);
        assertThat(volumes("size>=" + 32 * MIB)).containsExactlyInAnyOrder(beta, gamma);
        assertThat(volumes("size<=" + 32 * MIB)).containsExactlyInAnyOrder(alpha, beta);
        assertThat(volumes("name?=alpha,gamma")).containsExactlyInAnyOrder(alpha, gamma);
        assertThat(volumes("name!?=alpha,gamma")).containsExactlyInAnyOrder(beta);
        assertThat(volumes("name~=%mm%")).containsExactlyInAnyOrder(gamma);
        assertThat(volumes("name~=a%")).containsExactlyInAnyOrder(alpha);
        assertThat(volumes("vmInstanceUuid=null")).containsExactlyInAnyOrder(beta, gamma);
        assertThat(volumes("vmInstanceUuid!=null")).containsExactlyInAnyOrder(alpha);
        assertThat(volumes("vmInstanceUuid=" + vmWithAlpha, "size<" + 32 * MIB)).containsExactlyInAnyOrder(alpha);
    }

    @Test
    void pagingSortingCountAndFields() {
        QueryVolumeAction q = ours();
        q.sortBy = "name";
        q.limit = 2;
        q.start = 0;
        assertThat(names(q.call())).containsExactly("alpha", "beta");
        q.start = 2;
        assertThat(names(q.call())).containsExactly("gamma");
        q.start = 0;
        q.limit = 1;
        q.sortDirection = "desc";
        assertThat(names(q.call())).containsExactly("gamma");

        QueryVolumeAction count = ours();
        count.count = true;
        QueryVolumeAction.Result c = count.call();
        assertThat(c.error).isNull();
        assertThat(c.value.getTotal()).isEqualTo(3L);
        assertThat(c.value.getInventories()).isNull();

        QueryVolumeAction withCount = ours();
        withCount.replyWithCount = true;
        withCount.limit = 1;
        QueryVolumeAction.Result w = withCount.call();
        assertThat(w.value.getTotal()).isEqualTo(3L);
        assertThat(w.value.getInventories()).hasSize(1);

        QueryVolumeAction some = ours();
        some.fields = List.of("uuid", "name");
        some.conditions.add("uuid=" + beta);
        VolumeInventory v = (VolumeInventory) some.call().value.getInventories().get(0);
        assertThat(v.getName()).isEqualTo("beta");
        assertThat(v.getSize()).isNull();
    }

    @Test
    void typedInventoriesWithZonedDates() {
        QueryVolumeAction q = volumeQuery(admin);
        q.conditions.add("uuid=" + gamma);
        VolumeInventory v = (VolumeInventory) q.call().value.getInventories().get(0);
        assertThat(v.getPrimaryStorageUuid()).isEqualTo(psB);
        assertThat(v.getSize()).isEqualTo(48 * MIB);
        assertThat(v.getFormat()).isEqualTo("qcow2");
        assertThat(Math.abs(v.getCreateDate().getTime() - System.currentTimeMillis())).isLessThan(10 * 60_000L);

        QueryHostAction h = new QueryHostAction();
        h.sessionId = admin;
        h.conditions.add("uuid=" + host);
        Object hostInv = h.call().value.getInventories().get(0);
        assertThat(hostInv).isInstanceOf(KVMHostInventory.class);
        assertThat(((HostInventory) hostInv).getManagementIp()).isEqualTo("127.0.0.1");
        assertThat(((HostInventory) hostInv).getStatus()).isEqualTo("Connected");

        QueryPrimaryStorageAction ps = new QueryPrimaryStorageAction();
        ps.sessionId = admin;
        ps.conditions.add("name=ps-a");
        PrimaryStorageInventory psInv = (PrimaryStorageInventory) ps.call().value.getInventories().get(0);
        assertThat(psInv.getUuid()).isEqualTo(psA);
        assertThat(psInv.getType()).isEqualTo("LocalStorage");

        QueryVmInstanceAction vm = new QueryVmInstanceAction();
        vm.sessionId = admin;
        vm.conditions.add("uuid=" + vmWithAlpha);
        VmInstanceInventory vmInv = (VmInstanceInventory) vm.call().value.getInventories().get(0);
        assertThat(vmInv.getHostUuid()).isEqualTo(host);
        assertThat(vmInv.getState()).isEqualTo("Stopped");
        assertThat(vmInv.getMemorySize()).isEqualTo(64 * MIB);
    }

    @Test
    void badQueriesGetTheSame400AsOverRawHttp() {
        for (String[] bad : new String[][]{{"bogus=1", "bogus"}, {"size>big", "size"}, {"name", "malformed"},
                                           {"primaryStorage.name=x", "nested"}, {"size~=1%", "like"}}) {
            QueryVolumeAction q = volumeQuery(admin);
            q.conditions.add(bad[0]);
            ZStackSdk.assertHttpError(q.call().error, 400, "AIO.1000", bad[1]);
            Http.Response raw = sdk.http.get("/v1/volumes?q=" + java.net.URLEncoder.encode(bad[0], java.nio.charset.StandardCharsets.UTF_8), admin);
            assertThat(raw.status()).as(bad[0]).isEqualTo(400);
            assertThat(raw.raw()).contains(bad[1]);
        }
        QueryVolumeAction sort = volumeQuery(admin);
        sort.sortBy = "nope";
        ZStackSdk.assertHttpError(sort.call().error, 400, "AIO.1000", "nope");
        QueryVolumeAction fields = volumeQuery(admin);
        fields.fields = List.of("uuid", "nope");
        ZStackSdk.assertHttpError(fields.call().error, 400, "AIO.1000", "nope");
    }

    // ---- configs

    @Test
    void globalConfigsUpdateAndQuery() {
        try {
            UpdateGlobalConfigAction u = new UpdateGlobalConfigAction();
            u.category = "kvm";
            u.name = "vm.ioMode";
            u.value = "native";
            u.sessionId = admin;
            UpdateGlobalConfigAction.Result r = u.call();
            assertThat(r.error).isNull();
            assertThat(r.value.getInventory().getValue()).isEqualTo("native");

            QueryGlobalConfigAction q = new QueryGlobalConfigAction();
            q.sessionId = admin;
            q.conditions = List.of("category=kvm", "name=vm.ioMode");
            QueryGlobalConfigAction.Result qr = q.call();
            assertThat(qr.value.getInventories()).hasSize(1);
            GlobalConfigInventory g = (GlobalConfigInventory) qr.value.getInventories().get(0);
            assertThat(g.getValue()).isEqualTo("native");
            assertThat(g.getDefaultValue()).isEqualTo("threads");

            u.value = "fast";
            UpdateGlobalConfigAction.Result bad = u.call();
            assertThat(bad.error.getCode()).isEqualTo("AIO.1003");
            assertThat(bad.error.getDescription()).contains("fast");
            assertThat(((GlobalConfigInventory) q.call().value.getInventories().get(0)).getValue()).isEqualTo("native");
        } finally {
            UpdateGlobalConfigAction reset = new UpdateGlobalConfigAction();
            reset.category = "kvm";
            reset.name = "vm.ioMode";
            reset.value = "threads";
            reset.sessionId = admin;
            assertThat(reset.call().error).isNull();
        }
    }

    @Test
    void resourceConfigsUpdateGetQueryDelete() {
        UpdateResourceConfigAction u = new UpdateResourceConfigAction();
        u.category = "kvm";
        u.name = "vm.ioMode";
        u.resourceUuid = beta;
        u.value = "auto";
        u.sessionId = admin;
        UpdateResourceConfigAction.Result ur = u.call();
        assertThat(ur.error).as("%s", describe(ur.error)).isNull();
        assertThat(ur.value.getInventory().getResourceType()).isEqualTo("VolumeVO");

        GetResourceConfigAction g = new GetResourceConfigAction();
        g.category = "kvm";
        g.name = "vm.ioMode";
        g.resourceUuid = beta;
        g.sessionId = admin;
        GetResourceConfigAction.Result gr = g.call();
        assertThat(gr.error).isNull();
        assertThat(gr.value.getValue()).isEqualTo("auto");
        assertThat(gr.value.getEffectiveConfigs()).isNotEmpty();

        QueryResourceConfigAction q = new QueryResourceConfigAction();
        q.sessionId = admin;
        q.conditions.add("resourceUuid=" + beta);
        ResourceConfigInventory rc = (ResourceConfigInventory) q.call().value.getInventories().get(0);
        assertThat(rc.getValue()).isEqualTo("auto");
        assertThat(rc.getCreateDate()).isNotNull();

        DeleteResourceConfigAction d = new DeleteResourceConfigAction();
        d.category = "kvm";
        d.name = "vm.ioMode";
        d.resourceUuid = beta;
        d.sessionId = admin;
        assertThat(d.call().error).isNull();
        assertThat(g.call().value.getValue()).isEqualTo("threads");
        assertThat(q.call().value.getInventories()).isEmpty();
        assertThat(d.call().error.getCode()).isEqualTo("AIO.1200");
    }

    // ---- accounts, volumes, errors

    @Test
    void createAccountAnswers200AndTheTenantSeesOnlyItsOwn() throws Exception {
        CreateAccountAction a = new CreateAccountAction();
        a.name = "tenant-" + UUID.randomUUID().toString().substring(0, 8);
        a.password = "tenant-password";
        a.sessionId = admin;
        CreateAccountAction.Result r = a.call();
        assertThat(r.error).isNull();
        assertThat(r.value.getInventory().getName()).isEqualTo(a.name);
        assertThat(r.value.getInventory().getType()).isEqualTo("Normal");

        String tenant = sdk.login(a.name, ZStackSdk.sha512Hex("tenant-password"));
        assertThat(volumeQuery(tenant).call().value.getInventories()).isEmpty();
        QueryAccountAction accounts = new QueryAccountAction();
        accounts.sessionId = tenant;
        List<?> seen = accounts.call().value.getInventories();
        assertThat(seen).hasSize(1);
        assertThat(((AccountInventory) seen.get(0)).getUuid()).isEqualTo(r.value.getInventory().getUuid());

        UpdateGlobalConfigAction u = new UpdateGlobalConfigAction();
        u.category = "kvm";
        u.name = "vm.ioMode";
        u.value = "native";
        u.sessionId = tenant;
        assertThat(u.call().error.getCode()).isEqualTo("AIO.1101");

        a.sessionId = tenant;
        a.name = "another";
        assertThat(a.call().error.getCode()).isEqualTo("AIO.1101");
        a.sessionId = admin;
        a.type = "SystemAdmin";
        CreateAccountAction.Result second = a.call();
        assertThat(second.error.getCode()).isEqualTo("AIO.1000");
        assertThat(second.error.getDescription()).contains("SystemAdmin");

        UpdateResourceConfigAction o = new UpdateResourceConfigAction();
        o.category = "kvm";
        o.name = "vm.cacheMode";
        o.resourceUuid = gamma;
        o.value = "writeback";
        o.sessionId = admin;
        assertThat(o.call().error).as("%s", describe(o.call().error)).isNull();
        try {
            QueryResourceConfigAction overrides = new QueryResourceConfigAction();
            overrides.conditions.add("resourceUuid=" + gamma);
            overrides.sessionId = tenant;
            assertThat(overrides.call().value.getInventories()).as("a tenant sees no override of another's volume").isEmpty();
            overrides.sessionId = admin;
            assertThat(overrides.call().value.getInventories()).hasSize(1);
        } finally {
            DeleteResourceConfigAction d = new DeleteResourceConfigAction();
            d.category = "kvm";
            d.name = "vm.cacheMode";
            d.resourceUuid = gamma;
            d.sessionId = admin;
            assertThat(d.call().error).isNull();
        }
    }

    @Test
    void createDataVolumeTakesDiskSizeAndSystemTagsAndRefusesUnknownTags() {
        VolumeInventory v = createVolume("thick", 20 * MIB, psC, "volumeProvisioningStrategy::ThickProvisioning");
        assertThat(v.getSize()).isEqualTo(20 * MIB);
        assertThat(v.getFormat()).isEqualTo("qcow2");
        assertThat(v.getPrimaryStorageUuid()).isEqualTo(psC);
        assertThat(sdk.http.get("/v1/volumes/" + v.getUuid(), admin).body().path("inventory").path("preallocation").asText())
                .isEqualTo("falloc");

        CreateDataVolumeAction bad = new CreateDataVolumeAction();
        bad.name = "tagged";
        bad.diskSize = 20 * MIB;
        bad.primaryStorageUuid = psC;
        bad.systemTags = List.of("ephemeral::true");
        bad.sessionId = admin;
        CreateDataVolumeAction.Result r = bad.call();
        assertThat(r.error.getCode()).isEqualTo("AIO.1000");
        assertThat(r.error.getDescription()).contains("ephemeral::true");
        QueryVolumeAction tagged = volumeQuery(admin);
        tagged.conditions.add("name=tagged");
        tagged.count = true;
        assertThat(tagged.call().value.getTotal()).isZero();

        bad.systemTags = null;
        bad.diskSize = 0;
        assertThat(bad.call().error.getCode()).isEqualTo("AIO.1000");
        assertThat(tagged.call().value.getTotal()).isZero();
    }

    @Test
    void errorsArriveInErrorCode() {
        StartVmInstanceAction s = new StartVmInstanceAction();
        s.uuid = UUID.randomUUID().toString().replace("-", "");
        s.sessionId = admin;
        StartVmInstanceAction.Result r = s.call();
        assertThat(r.error.getCode()).isEqualTo("AIO.1200");
        assertThat(r.error.getDescription()).contains(s.uuid);
        assertThat(r.error.getDetails()).isNotBlank();

        s.uuid = "not-a-uuid";
        assertThat(s.call().error.getCode()).isEqualTo("AIO.1006");
    }

    @Test
    void addKvmHostWithABadTokenOrPortTagIsRefusedAndAddsNothing() throws Exception {
        long before = sdkHostCount();
        for (List<String> tags : List.of(List.of("agentEnrollment::not-a-token", "agentPort::" + agentPortInUse),
                List.of("agentEnrollment::" + agentEnrollment(), "agentPort::70000"),
                List.of("agentEnrollment::" + agentEnrollment(), "sshKey::x"))) {
            AddKVMHostAction a = new AddKVMHostAction();
            a.name = "refused";
            a.managementIp = "127.0.0.1";
            a.username = "root";
            a.password = "not-used";
            a.clusterUuid = "0f3e5a2b6c7d4e8f9a0b1c2d3e4f5a6b";
            a.systemTags = new ArrayList<>(tags);
            a.sessionId = admin;
            AddKVMHostAction.Result r = a.call();
            assertThat(r.error).as("tags %s", tags.get(1)).isNotNull();
            assertThat(r.error.getCode()).as(describe(r.error)).startsWith("AIO.");
            assertThat(describe(r.error)).doesNotContain(agentEnrollment());
        }
        assertThat(sdkHostCount()).as("nothing added").isEqualTo(before);
    }

    long sdkHostCount() {
        QueryHostAction q = new QueryHostAction();
        q.sessionId = admin;
        q.count = true;
        return q.call().value.getTotal();
    }

    @Test
    void reconnectHostAndAttachDataVolume() {
        ReconnectHostAction r = new ReconnectHostAction();
        r.uuid = host;
        r.sessionId = admin;
        ReconnectHostAction.Result rr = r.call();
        assertThat(rr.error).as("%s", describe(rr.error)).isNull();
        assertThat(rr.value.getInventory().getUuid()).isEqualTo(host);
        assertThat(rr.value.getInventory().getStatus()).isEqualTo("Connected");

        String vm = sdk.vm(admin, "vm-attach", host, createVolume("root-of-attach", 16 * MIB, psC).uuid);
        String data = createVolume("attached", 16 * MIB, psC).uuid;
        AttachDataVolumeToVmAction a = new AttachDataVolumeToVmAction();
        a.volumeUuid = data;
        a.vmInstanceUuid = vm;
        a.sessionId = admin;
        AttachDataVolumeToVmAction.Result ar = a.call();
        assertThat(ar.error).as("%s", describe(ar.error)).isNull();
        assertThat(ar.value.getInventory().getVmInstanceUuid()).isEqualTo(vm);
        assertThat(a.call().error.getCode()).startsWith("AIO.13");
    }

    // ---- VM start and stop

    @Test
    void startAndStopAVm() {
        String vol = createVolume("boot", 16 * MIB, psC).uuid;
        String vm = sdk.vm(admin, "vm-start-stop", host, vol);
        StartVmInstanceAction start = new StartVmInstanceAction();
        start.uuid = vm;
        start.sessionId = admin;
        StartVmInstanceAction.Result r = start.call();
        assertThat(r.error).isNull();
        assertThat(r.value.getInventory().getState()).isEqualTo("Running");
        assertThat(r.value.getInventory().getHostUuid()).isEqualTo(host);
        assertQemu(vm, true);

        StartVmInstanceAction.Result again = start.call();
        assertThat(again.error.getCode()).isEqualTo("AIO.1300");

        StopVmInstanceAction stop = new StopVmInstanceAction();
        stop.uuid = vm;
        stop.sessionId = admin;
        StopVmInstanceAction.Result s = stop.call();
        assertThat(s.error).isNull();
        assertThat(s.value.getInventory().getState()).isEqualTo("Stopped");
        assertQemu(vm, false);
    }

    /**
     * ZStack's MigrateVmAction goes through the job protocol (X-Job-UUID, 202, polling) like every write call; its
     * refusals arrive in error.code. GetVmMigrationCandidateHostsAction reads the same migration-target-hosts.
     */
    @Test
    void migrateVmThroughZStacksSdk() {
        String vm = sdk.vm(admin, "vm-migrate", host, createVolume("root-of-migrate", 16 * MIB, psC).uuid);
        GetVmMigrationCandidateHostsAction targets = new GetVmMigrationCandidateHostsAction();
        targets.vmInstanceUuid = vm;
        targets.sessionId = admin;
        GetVmMigrationCandidateHostsAction.Result t = targets.call();
        assertThat(t.error).as("%s", describe(t.error)).isNull();
        assertThat(t.value.getInventories()).as("the VM's own host is no target").isEmpty();

        MigrateVmAction m = new MigrateVmAction();
        m.vmInstanceUuid = vm;
        m.hostUuid = host;
        m.sessionId = admin;
        MigrateVmAction.Result same = m.call();
        assertThat(same.error.getCode()).isEqualTo("AIO.1000");
        assertThat(same.error.getDescription()).contains("already on host");
        m.hostUuid = UUID.randomUUID().toString().replace("-", "");
        MigrateVmAction.Result unknown = m.call();
        assertThat(unknown.error.getCode()).isEqualTo("AIO.1200");
        assertThat(unknown.error.getDescription()).contains(m.hostUuid);
    }

    // ---- helpers

    QueryVolumeAction volumeQuery(String session) {
        QueryVolumeAction q = new QueryVolumeAction();
        q.sessionId = session;
        return q;
    }

    /** A query over the three volumes built in boot(). */
    QueryVolumeAction ours() {
        QueryVolumeAction q = volumeQuery(admin);
        q.conditions.add("primaryStorageUuid?=" + psA + "," + psB);
        return q;
    }

    List<String> volumes(String... conditions) {
        QueryVolumeAction q = ours();
        q.conditions.addAll(Arrays.asList(conditions));
        QueryVolumeAction.Result r = q.call();
        assertThat(r.error).as("query %s", Arrays.toString(conditions)).isNull();
        return r.value.getInventories().stream().map(o -> ((VolumeInventory) o).getUuid()).toList();
    }

    static String describe(org.zstack.sdk.ErrorCode e) {
        return e == null ? "no error" : e.getCode() + ": " + e.getDescription() + " / " + e.getDetails();
    }

    static List<String> names(QueryVolumeAction.Result r) {
        assertThat(r.error).isNull();
        return r.value.getInventories().stream().map(o -> ((VolumeInventory) o).getName()).toList();
    }
}
