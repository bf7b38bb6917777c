package org.zstack.aio.test.badinput;

import com.fasterxml.jackson.databind.JsonNode;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Sends generated bad requests to a running server over every operation of its /v3/api-docs and collects every
 * breach of the contract: a 5xx, an error body outside {"error":{"code","description","details"}} (or naming a Java
 * class, or not JSON), or a refused request that changed the database or the storage directories.
 */
final class BadInputBattery implements AutoCloseable {

    private static final Pattern CODE = Pattern.compile("AIO\\.\\d{4}");
    private static final Pattern JAVA_CLASS = Pattern.compile(
            "\\b(java|javax|jakarta|org\\.springframework|org\\.hibernate|org\\.apache|com\\.fasterxml|org\\.zstack)\\.[a-z]"
            + "|\\b[A-Z][A-Za-z]*Exception\\b|\\b[A-Z][A-Za-z]*Error\\b(?!\")|<html|<!doctype");
    static final Set<Integer> CONTRACT_STATUSES = Set.of(400, 401, 403, 404, 405, 406, 409, 413, 415, 429);

    final TestDatabase db;
    final RunningServer server;
    final Fixture fixture;
    final Path storageDir;
    final String admin;
    final String tenant;
    final Map<String, String> ids = new HashMap<>();
    final List<BadRequests.Operation> operations;
    final BadRequests requests;

    final List<String> breaches = new ArrayList<>();
    final Map<Integer, Integer> statuses = new TreeMap<>();
    final Set<String> operationsHit = new TreeSet<>();
    int sent;

    BadInputBattery(TestDatabase db) {
        this.db = db;
        // the host and VM trackers write on their own schedule (host status, disks as they run): "a refused request
        // changed nothing" is measured with them off, so every change seen is the request's
        this.server = RunningServer.start(db, Map.of("aio.tracker.enabled", "false"));
        this.fixture = new Fixture(server);
        this.storageDir = Path.of(Storage.dir("badinput"));
        this.admin = fixture.adminSession();
        this.tenant = fixture.tenant(admin, "fuzz-tenant");
        ids.put("tenantAccount", fixture.http.get("/v1/accounts/quotas", tenant).body().path("inventories").get(0)
                .path("identityUuid").asText());
        ids.put("ps", fixture.primaryStorage(admin, "fuzz-local", "LocalStorage", storageDir.toString()));
        ids.put("host", fixture.localHost(admin));
        ids.put("vol", fixture.volume(admin, "fuzz-boot", "qcow2", "none", ids.get("ps"), ids.get("host")));
        ids.put("data", fixture.volume(admin, "fuzz-data", "qcow2", "none", ids.get("ps"), ids.get("host")));
        ids.put("tenantVol", fixture.volume(tenant, "fuzz-tenant-vol", "qcow2", "none", ids.get("ps"), ids.get("host")));
        ids.put("vm", fixture.vm(admin, "fuzz-vm", ids.get("host"), List.of(ids.get("vol"))));
        ids.put("spareSession", fixture.adminSession());
        JsonNode docs = fixture.http.get("/v3/api-docs", null).body();
        this.operations = BadRequests.operations(docs);
        this.requests = new BadRequests(templates(), admin, tenant);
    }

    /** A valid call of each operation (compact JSON: the generator edits it as text). */
    private Map<String, BadRequests.Template> templates() {
        String ps = ids.get("ps");
        String host = ids.get("host");
        String vol = ids.get("vol");
        String data = ids.get("data");
        String vm = ids.get("vm");
        Map<String, BadRequests.Template> t = new LinkedHashMap<>();
        t.put("LogInByAccount", new BadRequests.Template(Map.of(), "",
                "{\"logInByAccount\":{\"accountName\":\"admin\",\"password\":\"" + RunningServer.ADMIN_PASSWORD + "\"}}", false));
        t.put("LogOut", new BadRequests.Template(Map.of("sessionUuid", ids.get("spareSession")), "", null, false));
        t.put("CreateAccount", new BadRequests.Template(Map.of(), "",
                "{\"params\":{\"name\":\"fuzz-new\",\"password\":\"fuzz-password-1\"}}", true));
        t.put("QueryGlobalConfig", new BadRequests.Template(Map.of(), "?q=category=kvm&limit=10&sort=-name", null, true));
        t.put("QueryResourceConfig", new BadRequests.Template(Map.of(), "?q=resourceUuid=" + ps + "&replyWithCount=true", null, false));
        t.put("QueryAccount", new BadRequests.Template(Map.of(), "?q=name~=fuzz%25&fields=uuid,name", null, false));
        t.put("GetGlobalConfig", new BadRequests.Template(Map.of("category", "kvm", "name", "vm.ioMode"), "", null, true));
        t.put("UpdateGlobalConfig", new BadRequests.Template(Map.of("category", "kvm", "name", "vm.ioMode"), "",
                "{\"updateGlobalConfig\":{\"value\":\"native\"}}", true));
        t.put("UpdateResourceConfig", new BadRequests.Template(Map.of("category", "kvm", "name", "vm.ioMode", "resourceUuid", ps), "",
                "{\"updateResourceConfig\":{\"value\":\"threads\"}}", true));
        t.put("DeleteResourceConfig", new BadRequests.Template(Map.of("category", "kvm", "name", "vm.ioMode", "resourceUuid", ps),
                "", null, true));
        t.put("GetResourceConfig", new BadRequests.Template(Map.of("resourceUuid", ps, "category", "kvm", "name", "vm.ioMode"),
                "", null, true));
        t.put("QueryVolumeIoModePreview", new BadRequests.Template(Map.of(), "", null, false));
        t.put("GetGlobalConfigImpact", new BadRequests.Template(Map.of(), "?category=kvm&name=vm.ioMode&value=native", null, true));
        t.put("GetVolumeIoMode", new BadRequests.Template(Map.of("uuid", vol), "?hostUuid=" + host, null, false));
        t.put("BenchmarkHostIo", new BadRequests.Template(Map.of("uuid", host), "",
                "{\"params\":{\"primaryStorageUuids\":[\"" + ps + "\"],\"seconds\":1}}", true));
        t.put("QueryHostIoBenchmark", new BadRequests.Template(Map.of("uuid", host), "", null, true));
        t.put("AddPrimaryStorage", new BadRequests.Template(Map.of(), "",
                "{\"params\":{\"name\":\"fuzz-ps\",\"type\":\"NFS\",\"url\":\"" + storageDir.resolve("nfs") + "\"}}", true));
        t.put("QueryPrimaryStorage", new BadRequests.Template(Map.of(), "", null, true));
        t.put("GetPrimaryStorage", new BadRequests.Template(Map.of("uuid", ps), "", null, true));
        t.put("CreateVmInstance", new BadRequests.Template(Map.of(), "", "{\"params\":{\"name\":\"fuzz-vm2\",\"hostUuid\":\"" + host
                + "\",\"memorySize\":67108864,\"cpuNum\":1,\"volumeUuids\":[\"" + data + "\"]}}", false));
        t.put("QueryVmInstance", new BadRequests.Template(Map.of(), "", null, false));
        t.put("GetVmInstance", new BadRequests.Template(Map.of("uuid", vm), "", null, false));
        t.put("StartVmInstance", new BadRequests.Template(Map.of("uuid", vm), "", "{\"startVmInstance\":{}}", false));
        t.put("AttachDataVolumeToVm", new BadRequests.Template(Map.of("volumeUuid", data, "vmUuid", vm), "", null, false));
        t.put("CreateDataVolume", new BadRequests.Template(Map.of(), "", "{\"params\":{\"name\":\"fuzz-vol\",\"size\":16777216,"
                + "\"format\":\"qcow2\",\"preallocation\":\"none\",\"primaryStorageUuid\":\"" + ps + "\",\"hostUuid\":\"" + host + "\"}}", false));
        t.put("QueryVolume", new BadRequests.Template(Map.of(), "?q=primaryStorageUuid=" + ps + "&q=size>=1&start=0&limit=5", null, false));
        t.put("GetVolume", new BadRequests.Template(Map.of("uuid", vol), "", null, false));
        t.put("AddKVMHost", new BadRequests.Template(Map.of(), "", "{\"params\":{\"name\":\"fuzz-host\",\"managementIp\":\"127.0.0.1\","
                + "\"agentPort\":" + server.agentPort() + "}}", true));
        t.put("ReconnectHost", new BadRequests.Template(Map.of("uuid", host), "", "{\"reconnectHost\":{}}", true));
        t.put("QueryHost", new BadRequests.Template(Map.of(), "", null, true));
        t.put("GetHost", new BadRequests.Template(Map.of("uuid", host), "", null, true));
        t.put("QueryQuota", new BadRequests.Template(Map.of(), "?identityUuid=" + ids.get("tenantAccount"), null, false));
        t.put("UpdateQuota", new BadRequests.Template(Map.of(), "", "{\"updateQuota\":{\"identityUuid\":\""
                + ids.get("tenantAccount") + "\",\"name\":\"vm.num\",\"value\":50}}", true));
        return t;
    }

    /** Sends count generated requests, cycling through the operations so each gets its share. */
    void run(long seed, int count) {
        Random rnd = new Random(seed);
        Map<String, List<String>> before = snapshot();
        for (int i = 0; i < count; i++) {
            BadRequests.Operation op = operations.get(i % operations.size());
            BadRequests.Generated g = requests.generate(op, rnd);
            before = check(g, before);
            operationsHit.add(op.id());
        }
    }

    /** Sends one request, records any breach, and returns the state to compare the next request against. */
    Map<String, List<String>> check(BadRequests.Generated g, Map<String, List<String>> before) {
        RawHttp.Response r = RawHttp.send(server.port(), g.request());
        sent++;
        statuses.merge(r.status(), 1, Integer::sum);
        String where = g.label() + " (" + g.request().method() + " " + RawHttp.abbreviate(g.request().target()) + ") -> "
                       + r.status() + " " + RawHttp.abbreviate(r.body());
        breaches.addAll(shapeBreaches(r).stream().map(b -> where + ": " + b).toList());
        Map<String, List<String>> after = snapshot();
        if (r.status() >= 400 && !after.equals(before)) {
            breaches.add(where + ": a refused request changed " + diff(before, after));
        }
        return after;
    }

    /** What is wrong with this answer's status and body as the contract sees it (empty: nothing). */
    static List<String> shapeBreaches(RawHttp.Response r) {
        List<String> out = new ArrayList<>();
        if (r.status() >= 500) out.add("a " + r.status() + " for bad input");
        if (JAVA_CLASS.matcher(r.body()).find()) out.add("the body names a Java class or is HTML");
        if (r.status() >= 400) {
            if (!CONTRACT_STATUSES.contains(r.status())) out.add("status " + r.status() + " is not one the contract uses");
            String type = r.header("content-type");
            if (type == null || !type.startsWith("application/json")) out.add("content type " + type);
            JsonNode b = r.json();
            JsonNode e = b == null ? null : b.get("error");
            if (b == null || b.size() != 1 || e == null || !e.isObject()) {
                out.add("not the contract's error body");
            } else if (!CODE.matcher(e.path("code").asText()).matches() || e.path("description").asText().isBlank()
                       || e.path("details").asText().isBlank() || e.size() != 3) {
                out.add("error body fields wrong: " + e);
            }
            if (r.status() == 429 && r.header("retry-after") == null) out.add("429 without Retry-After");
        }
        return out;
    }

    Map<String, List<String>> snapshot() {
        return StateSnapshot.take(db, List.of(storageDir));
    }

    private static String diff(Map<String, List<String>> a, Map<String, List<String>> b) {
        List<String> out = new ArrayList<>();
        for (String k : b.keySet()) {
            if (!b.get(k).equals(a.get(k))) out.add(k);
        }
        return out.toString();
    }

    @Override
    public void close() {
        server.close();
    }
}
