package org.zstack.aio.test.api;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;
import org.zstack.sdk.ApiErrorException;
import org.zstack.sdk.DeleteResourceConfigAction;
import org.zstack.sdk.GetGlobalConfigAction;
import org.zstack.sdk.GetResourceConfigAction;
import org.zstack.sdk.GetResourceConfigResult;
import org.zstack.sdk.GetVolumeIoModeAction;
import org.zstack.sdk.IoModeDecisionInventory;
import org.zstack.sdk.UpdateGlobalConfigAction;
import org.zstack.sdk.UpdateResourceConfigAction;

import java.sql.Connection;
import java.sql.ResultSet;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.provider.Arguments;
import org.zstack.sdk.GetGlobalConfigImpactAction;
import org.zstack.sdk.GlobalConfigInventory;

/**
 * docs/contract.md, "Configs", "The decision" and "REST API" over real HTTP against a real database: config read/update/delete, resolution order, effective
 * configs, RBAC, and bad input that is refused with the error body and changes nothing. Run on H2 and MariaDB by the
 * subclasses.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ConfigApiContract {

    static final String IO = "vm.ioMode";

    TestDatabase db;
    RunningServer server;
    Fixture f;
    Http http;
    String admin;
    String tenantA;
    String tenantB;
    String local;
    String block;
    String host;
    String volA;       // tenant A, qcow2 full on LocalStorage
    String sparseA;    // tenant A, qcow2 sparse on LocalStorage
    String volB;       // tenant B

    abstract TestDatabase database() throws Exception;

    @BeforeAll
    void boot() throws Exception {
        db = database();
        server = RunningServer.start(db);
        f = new Fixture(server);
        http = f.http;
        admin = f.adminSession();
        tenantA = f.tenant(admin, "tenant-a");
        tenantB = f.tenant(admin, "tenant-b");
        local = f.primaryStorage(admin, "local", "LocalStorage", Storage.dir("local"));
        block = f.primaryStorage(admin, "block", "SharedBlock", Storage.dir("block"));
        host = f.localHost(admin);
        volA = f.volume(tenantA, "a-full", "qcow2", "full", local, host);
        sparseA = f.volume(tenantA, "a-sparse", "qcow2", "none", local, host);
        volB = f.volume(tenantB, "b-full", "qcow2", "full", local, host);
    }

    @AfterAll
    void shutdown() throws Exception {
        if (server != null) server.close();
        if (db != null) db.close();
    }

    /** Each test starts from the defaults: no override, every global at its default. */
    @AfterEach
    void resetConfigs() throws Exception {
        db.resetConfigs();
    }

    // ---- reading and changing configs ----

    @Test
    void globalConfigsHaveTheContractsDefaults() {
        assertGlobal("vm.ioMode", "threads", List.of("threads", "native", "io_uring", "auto"));
        assertGlobal("vm.ioMode.onUnsatisfied", "fallback", List.of("fallback", "fail"));
        assertGlobal("vm.ioMode.native.allowFalloc", "false", List.of("true", "false"));
        assertGlobal("vm.cacheMode", "none", List.of("none", "writethrough", "writeback", "directsync"));
    }

    private void assertGlobal(String name, String def, List<String> valid) {
        GetGlobalConfigAction a = new GetGlobalConfigAction();
        a.category = "kvm";
        a.name = name;
        var inv = a.call(f.as(admin)).inventory;
        assertThat(inv.value).isEqualTo(def);
        assertThat(inv.defaultValue).isEqualTo(def);
        assertThat(inv.validValues).containsExactlyElementsOf(valid);
        assertThat(inv.description).isNotBlank();
    }

    @Test
    void adminUpdatesAGlobalConfigAndItIsStored() throws Exception {
        var inv = updateGlobal(admin, IO, "auto");
        assertThat(inv.value).isEqualTo("auto");
        assertThat(inv.defaultValue).isEqualTo("threads");
        assertThat(storedGlobal(IO)).isEqualTo("auto");
        assertThat(f.ioMode(admin, volA).path("requested").asText()).isEqualTo("auto");
    }

    @Test
    void resolutionGoesVolumeThenPrimaryStorageThenGlobal() {
        updateGlobal(admin, IO, "auto");
        assertRequested(volA, "auto", "global");

        setOverride(admin, IO, local, "native");
        assertRequested(volA, "native", "PrimaryStorageVO");

        setOverride(tenantA, IO, volA, "io_uring");
        assertRequested(volA, "io_uring", "VolumeVO");
        assertRequested(sparseA, "native", "PrimaryStorageVO");

        deleteOverride(tenantA, IO, volA);
        assertRequested(volA, "native", "PrimaryStorageVO");
        deleteOverride(admin, IO, local);
        assertRequested(volA, "auto", "global");
    }

    @Test
    void effectiveConfigsListOwnLevelThenParentsThenGlobal() {
        updateGlobal(admin, IO, "threads");
        setOverride(admin, IO, local, "auto");
        setOverride(tenantA, IO, volA, "io_uring");

        GetResourceConfigAction a = new GetResourceConfigAction();
        a.resourceUuid = volA;
        a.category = "kvm";
        a.name = IO;
        GetResourceConfigResult r = a.call(f.as(tenantA));
        assertThat(r.value).isEqualTo("io_uring");
        assertThat(r.effectiveConfigs).extracting(e -> e.resourceType + "=" + e.value)
                .containsExactly("VolumeVO=io_uring", "PrimaryStorageVO=auto", "global=threads");
        assertThat(r.effectiveConfigs.get(0).resourceUuid).isEqualTo(volA);
        assertThat(r.effectiveConfigs.get(1).resourceUuid).isEqualTo(local);
        // a tenant may not read global configs, so the answer tells it what it may set
        assertThat(r.validValues).containsExactly("threads", "native", "io_uring", "auto");

        // a volume without its own override resolves from its primary storage
        a.resourceUuid = sparseA;
        r = a.call(f.as(tenantA));
        assertThat(r.value).isEqualTo("auto");
        assertThat(r.effectiveConfigs).extracting(e -> e.resourceType).containsExactly("PrimaryStorageVO", "global");
    }

    @Test
    void cacheModeBindsToVolumeOnlyNotToPrimaryStorage() {
        Http.Response r = http.put("/v1/resource-configurations/kvm/vm.cacheMode/" + local + "/actions", admin,
                "{\"updateResourceConfig\":{\"value\":\"writeback\"}}");
        assertError(r, 400, "AIO.1004");
        setOverride(tenantA, "vm.cacheMode", volA, "writeback");
        assertThat(f.ioMode(tenantA, volA).path("checks").toString()).doesNotContain("\"cache-mode\""); // threads: no checks
        updateGlobal(admin, IO, "native");
        JsonNode d = f.ioMode(tenantA, volA);
        assertThat(d.path("effective").asText()).isEqualTo("threads");
        assertThat(d.path("reason").asText()).contains("cache-mode").contains("writeback");
    }

    @Test
    void theDecisionComesBackInTheContractsShape() {
        updateGlobal(admin, IO, "native");
        GetVolumeIoModeAction a = new GetVolumeIoModeAction();
        a.uuid = sparseA;
        a.hostUuid = host;
        IoModeDecisionInventory d = a.call(f.as(tenantA)).decision;
        assertThat(d.volumeUuid).isEqualTo(sparseA);
        assertThat(d.hostUuid).isEqualTo(host);
        assertThat(d.requested).isEqualTo("native");
        assertThat(d.source).isEqualTo("global");
        assertThat(d.effective).isEqualTo("threads");
        assertThat(d.refused).isFalse();
        assertThat(d.checks).anySatisfy(c -> {
            assertThat(c.mode).isEqualTo("native");
            assertThat(c.check).isEqualTo("non-sparse-image");
            assertThat(c.passed).isFalse();
            assertThat(c.message).contains("sparse");
        });
        assertThat(d.reason).contains("fell back to threads");
    }

    @Test
    void impactOfAGlobalChangeIsPreviewedWithoutChangingAnything() throws Exception {
        GetGlobalConfigImpactAction a = new GetGlobalConfigImpactAction();
        a.category = "kvm";
        a.name = IO;
        a.value = "native";
        var impact = a.call(f.as(admin)).inventory;
        assertThat(impact.volumes).isEqualTo(3);
        assertThat(impact.current.byEffective).containsOnly(Map.entry("threads", 3L));
        assertThat(impact.proposed.byEffective).containsOnly(Map.entry("native", 2L), Map.entry("threads", 1L));
        assertThat(impact.changed).isEqualTo(2);
        assertThat(impact.proposed.fallbacks).isEqualTo(1);
        assertThat(impact.proposed.reasons).singleElement().satisfies(g -> {
            assertThat(g.check).isEqualTo("non-sparse-image");
            assertThat(g.volumes).isEqualTo(1);
            assertThat(g.example).contains("sparse");
        });
        assertThat(storedGlobal(IO)).isEqualTo("threads");
        assertError(http.get("/v1/io-mode/impact?category=kvm&name=vm.ioMode&value=IO_URING", admin), 400, "AIO.1003");
        assertError(http.get("/v1/io-mode/impact?category=kvm&name=vm.ioMode&value=auto", tenantA), 403, "AIO.1101");
        assertThat(http.get("/v1/io-mode/previews", tenantA).body().path("inventories"))
                .extracting(n -> n.path("volumeUuid").asText()).containsExactlyInAnyOrder(volA, sparseA);
    }

    @Test
    void primaryStorageListsCountTheirVolumes() {
        JsonNode all = http.get("/v1/primary-storage", admin).body().path("inventories");
        Map<String, Long> counts = new HashMap<>();
        all.forEach(p -> counts.put(p.path("uuid").asText(), p.path("volumeCount").asLong()));
        assertThat(counts).containsEntry(local, 3L).containsEntry(block, 0L);
        assertThat(http.get("/v1/primary-storage/" + local, admin).body().path("inventory").path("volumeCount").asLong())
                .isEqualTo(3);
    }

    // ---- per-volume native refused when the volume's own facts rule it out ----

    @Test
    void nativeOnASparseVolumeIsRefusedAtSetTime() throws Exception {
        Http.Response r = http.put(resourcePath(IO, sparseA), tenantA, body("native"));
        assertError(r, 400, "AIO.1005");
        assertThat(r.body().path("error").path("description").asText()).contains("sparse");
        assertThat(overrideCount()).isZero();
    }

    @Test
    void nativeOnAWritebackVolumeIsRefusedAndSoIsWritebackOnANativeVolume() throws Exception {
        setOverride(tenantA, "vm.cacheMode", volA, "writeback");
        Http.Response r = http.put(resourcePath(IO, volA), tenantA, body("native"));
        assertError(r, 400, "AIO.1005");
        assertThat(r.body().path("error").path("description").asText()).contains("writeback");
        assertThat(storedOverride(volA, IO)).isNull();

        deleteOverride(tenantA, "vm.cacheMode", volA);
        setOverride(tenantA, IO, volA, "native");
        r = http.put(resourcePath("vm.cacheMode", volA), tenantA, body("writethrough"));
        assertError(r, 400, "AIO.1005");
        assertThat(storedOverride(volA, "vm.cacheMode")).isNull();
        assertThat(storedOverride(volA, IO)).isEqualTo("native");
    }

    // ---- RBAC ----

    @Test
    void tenantsTouchOnlyTheirOwnVolumes() throws Exception {
        assertError(http.get("/v1/global-configurations/kvm/" + IO, tenantA), 403, "AIO.1101");
        assertError(http.put("/v1/global-configurations/kvm/" + IO + "/actions", tenantA,
                "{\"updateGlobalConfig\":{\"value\":\"native\"}}"), 403, "AIO.1101");
        assertError(http.put(resourcePath(IO, local), tenantA, body("auto")), 403, "AIO.1101");
        assertError(http.put(resourcePath(IO, volB), tenantA, body("auto")), 403, "AIO.1101");
        assertError(http.get("/v1/resource-configurations/" + volB + "/kvm/" + IO, tenantA), 403, "AIO.1101");
        assertError(http.delete("/v1/resource-configurations/kvm/" + IO + "/" + volB, tenantA), 403, "AIO.1101");
        assertError(http.get("/v1/volumes/" + volB + "/io-mode", tenantA), 403, "AIO.1101");
        assertError(http.get("/v1/primary-storage", tenantA), 403, "AIO.1101");
        assertError(http.get("/v1/hosts", tenantA), 403, "AIO.1101");
        assertThat(storedGlobal(IO)).isEqualTo("threads");
        assertThat(overrideCount()).isZero();

        setOverride(tenantA, IO, volA, "auto");
        assertThat(storedOverride(volA, IO)).isEqualTo("auto");
        assertThat(http.get("/v1/volumes", tenantA).body().path("inventories"))
                .extracting(n -> n.path("uuid").asText()).containsExactlyInAnyOrder(volA, sparseA);
        deleteOverride(tenantA, IO, volA);
        assertThat(storedOverride(volA, IO)).isNull();
    }

    @Test
    void sdkSurfacesApiErrorsAsTypedExceptions() {
        UpdateResourceConfigAction a = new UpdateResourceConfigAction();
        a.category = "kvm";
        a.name = IO;
        a.resourceUuid = volB;
        a.value = "auto";
        assertThatThrownBy(() -> a.call(f.as(tenantA))).isInstanceOfSatisfying(ApiErrorException.class, e -> {
            assertThat(e.getHttpStatus()).isEqualTo(403);
            assertThat(e.getCode()).isEqualTo("AIO.1101");
            assertThat(e.getDescription()).isNotBlank();
            assertThat(e.getDetails()).isNotBlank();
        });
    }

    // ---- bad input: a 4xx with the error body, and nothing changes ----

    static Stream<Arguments> badGlobalValues() {
        return Stream.of(
                args("\"IO_URING\"", "AIO.1003"), args("\"\"", "AIO.1003"), args("\"native \"", "AIO.1003"),
                args("\"" + "x".repeat(10 * 1024) + "\"", "AIO.1003"), args("null", "AIO.1003"),
                args("5", "AIO.1003"), args("true", "AIO.1003"), args("[\"native\"]", "AIO.1003"));
    }

    private static Arguments args(Object... a) {
        return Arguments.of(a);
    }

    @ParameterizedTest
    @MethodSource("badGlobalValues")
    void badGlobalValuesAreRefusedAndChangeNothing(String valueJson, String code) throws Exception {
        Http.Response r = http.put("/v1/global-configurations/kvm/" + IO + "/actions", admin,
                "{\"updateGlobalConfig\":{\"value\":" + valueJson + "}}");
        assertError(r, 400, code);
        assertThat(storedGlobal(IO)).isEqualTo("threads");
    }

    @ParameterizedTest
    @MethodSource("badGlobalValues")
    void badResourceValuesAreRefusedAndChangeNothing(String valueJson, String code) throws Exception {
        Http.Response r = http.put(resourcePath(IO, volA), tenantA, "{\"updateResourceConfig\":{\"value\":" + valueJson + "}}");
        assertError(r, 400, code);
        assertThat(overrideCount()).isZero();
    }

    @Test
    void badRequestsOfEveryOtherKindAreRefusedAndChangeNothing() throws Exception {
        String good = "{\"updateGlobalConfig\":{\"value\":\"native\"}}";
        String path = "/v1/global-configurations/kvm/" + IO + "/actions";
        assertError(http.put("/v1/global-configurations/nokvm/" + IO + "/actions", admin, good), 404, "AIO.1002");
        assertError(http.put("/v1/global-configurations/kvm/vm.noSuch/actions", admin, good), 404, "AIO.1002");
        assertError(http.get("/v1/global-configurations/kvm/vm.noSuch", admin), 404, "AIO.1002");
        assertError(http.put(path, admin, "{\"updateGlobalConfig\":{\"value\":\"native\""), 400, "AIO.1001");
        assertError(http.put(path, admin, null), 400, "AIO.1001");
        assertError(http.put(path, admin, "{\"value\":\"native\"}"), 400, "AIO.1001");
        assertError(http.put(path, admin, "{\"updateGlobalConfig\":{}}"), 400, "AIO.1000");
        assertError(http.post(path, admin, good), 405, "AIO.1202");
        assertError(http.delete("/v1/global-configurations/kvm/" + IO, admin), 405, "AIO.1202");
        assertError(http.put(path, null, good), 401, "AIO.1100");
        assertError(http.put(path, "0123456789abcdef0123456789abcdef", good), 401, "AIO.1100");
        String loggedOut = f.adminSession();
        assertThat(http.delete("/v1/accounts/sessions/" + loggedOut, loggedOut).status()).isEqualTo(200);
        assertError(http.put(path, loggedOut, good), 401, "AIO.1100");
        assertError(http.put(path, tenantA, good), 403, "AIO.1101");
        assertThat(storedGlobal(IO)).isEqualTo("threads");

        String rgood = body("auto");
        assertError(http.put(resourcePath(IO, "0123456789abcdef0123456789abcdef"), admin, rgood), 404, "AIO.1200");
        assertError(http.put(resourcePath(IO, "not-a-uuid"), admin, rgood), 400, "AIO.1006");
        assertError(http.put(resourcePath(IO, volA.toUpperCase()), admin, rgood), 400, "AIO.1006");
        assertError(http.put(resourcePath(IO, host), admin, rgood), 400, "AIO.1004");
        assertError(http.put(resourcePath("vm.ioMode.onUnsatisfied", volA), admin, body("fail")), 400, "AIO.1004");
        assertError(http.put(resourcePath(IO, volA), admin, "{\"updateResourceConfig\":"), 400, "AIO.1001");
        assertError(http.delete("/v1/resource-configurations/kvm/" + IO + "/" + volA, admin), 404, "AIO.1200");
        assertThat(overrideCount()).isZero();

        assertError(http.put("/v1/accounts/login", null, "{\"logInByAccount\":{\"accountName\":\"admin\",\"password\":\"wrong\"}}"),
                401, "AIO.1100");
        assertError(http.post("/v1/accounts", admin, "{\"params\":{\"name\":\"x y\",\"password\":\"long-enough\"}}"), 400, "AIO.1000");
        assertError(http.post("/v1/accounts", tenantA, "{\"params\":{\"name\":\"sneaky\",\"password\":\"long-enough\"}}"), 403, "AIO.1101");
        assertError(http.get("/v1/no-such-api", admin), 404, "AIO.1201");
    }

    // ---- helpers ----

    private GlobalConfigInventory updateGlobal(String session, String name, String value) {
        UpdateGlobalConfigAction a = new UpdateGlobalConfigAction();
        a.category = "kvm";
        a.name = name;
        a.value = value;
        return a.call(f.as(session)).inventory;
    }

    void setOverride(String session, String name, String resource, String value) {
        UpdateResourceConfigAction a = new UpdateResourceConfigAction();
        a.category = "kvm";
        a.name = name;
        a.resourceUuid = resource;
        a.value = value;
        var inv = a.call(f.as(session)).inventory;
        assertThat(inv.value).isEqualTo(value);
        assertThat(inv.resourceUuid).isEqualTo(resource);
    }

    void deleteOverride(String session, String name, String resource) {
        DeleteResourceConfigAction a = new DeleteResourceConfigAction();
        a.category = "kvm";
        a.name = name;
        a.resourceUuid = resource;
        a.call(f.as(session));
    }

    private void assertRequested(String volume, String requested, String source) {
        JsonNode d = f.ioMode(admin, volume);
        assertThat(d.path("requested").asText()).as("requested of " + volume).isEqualTo(requested);
        assertThat(d.path("source").asText()).as("source of " + volume).isEqualTo(source);
    }

    static String body(String value) {
        return "{\"updateResourceConfig\":{\"value\":\"" + value + "\"}}";
    }

    static String resourcePath(String name, String uuid) {
        return "/v1/resource-configurations/kvm/" + name + "/" + uuid + "/actions";
    }

    static void assertError(Http.Response r, int status, String code) {
        assertThat(r.status()).as(r.raw()).isEqualTo(status);
        assertThat(r.errorCode()).as(r.raw()).isEqualTo(code);
        assertThat(r.body().path("error").path("description").asText()).as(r.raw()).isNotBlank();
        assertThat(r.body().path("error").path("details").asText()).as(r.raw()).isNotBlank();
    }

    String storedGlobal(String name) throws Exception {
        try (Connection c = db.connect(); var s = c.prepareStatement(
                "SELECT value FROM GlobalConfigVO WHERE category = 'kvm' AND name = ?")) {
            s.setString(1, name);
            ResultSet rs = s.executeQuery();
            return rs.next() ? rs.getString(1) : null;
        }
    }

    String storedOverride(String resource, String name) throws Exception {
        try (Connection c = db.connect(); var s = c.prepareStatement(
                "SELECT value FROM ResourceConfigVO WHERE resourceUuid = ? AND category = 'kvm' AND name = ?")) {
            s.setString(1, resource);
            s.setString(2, name);
            ResultSet rs = s.executeQuery();
            return rs.next() ? rs.getString(1) : null;
        }
    }

    int overrideCount() throws Exception {
        try (Connection c = db.connect(); ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM ResourceConfigVO")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
