package org.zstack.aio.test.support;

import com.fasterxml.jackson.databind.JsonNode;
import org.zstack.sdk.AddKVMHostAction;
import org.zstack.sdk.AddPrimaryStorageAction;
import org.zstack.sdk.CreateAccountAction;
import org.zstack.sdk.CreateDataVolumeAction;
import org.zstack.sdk.CreateVmInstanceAction;
import org.zstack.sdk.LogInByAccountAction;
import org.zstack.sdk.ZSClient;

import java.util.List;

/** Builds inventory through the public API (SDK), as a user would. */
public final class Fixture {

    public final RunningServer server;
    public final ZSClient anonymous;
    public final Http http;

    public Fixture(RunningServer server) {
        this.server = server;
        this.anonymous = new ZSClient(server.baseUrl());
        this.http = new Http(server.baseUrl());
    }

    /** For a server in another process (no bean access). */
    public Fixture(String baseUrl) {
        this.server = null;
        this.anonymous = new ZSClient(baseUrl);
        this.http = new Http(baseUrl);
    }

    public String login(String name, String password) {
        LogInByAccountAction a = new LogInByAccountAction();
        a.accountName = name;
        a.password = password;
        return a.call(anonymous).inventory.uuid;
    }

    public String adminSession() {
        return login("admin", RunningServer.ADMIN_PASSWORD);
    }

    public ZSClient as(String session) {
        return anonymous.withSession(session);
    }

    /** Creates a tenant account and returns a session of it. */
    public String tenant(String admin, String name) {
        CreateAccountAction a = new CreateAccountAction();
        a.name = name;
        a.password = "tenant-password-" + name;
        a.call(as(admin));
        return login(name, "tenant-password-" + name);
    }

    public String primaryStorage(String admin, String name, String type, String url) {
        AddPrimaryStorageAction a = new AddPrimaryStorageAction();
        a.name = name;
        a.type = type;
        a.url = url;
        return a.call(as(admin)).inventory.uuid;
    }

    /** Adds the host whose agent listens on 127.0.0.1:agentPort, enrolled with that agent's token. */
    public String host(String admin, int agentPort, String agentEnrollment) {
        AddKVMHostAction a = new AddKVMHostAction();
        a.name = "kvm-" + agentPort;
        a.managementIp = "127.0.0.1";
        a.agentPort = agentPort;
        a.agentEnrollment = agentEnrollment;
        return a.call(as(admin)).inventory.uuid;
    }

    /** Adds the server's in-process agent as a host. */
    public String localHost(String admin) {
        return host(admin, server.agentPort(), server.agentEnrollment());
    }

    public String volume(String session, String name, String format, String prealloc, String ps, String host) {
        return volume(session, name, format, prealloc, ps, host, 16L << 20);
    }

    public String volume(String session, String name, String format, String prealloc, String ps, String host, long size) {
        CreateDataVolumeAction a = new CreateDataVolumeAction();
        a.name = name;
        a.size = size;
        a.format = format;
        a.preallocation = prealloc;
        a.primaryStorageUuid = ps;
        a.hostUuid = host;
        return a.call(as(session)).inventory.uuid;
    }

    public String vm(String session, String name, String host, List<String> volumes) {
        CreateVmInstanceAction a = new CreateVmInstanceAction();
        a.name = name;
        a.hostUuid = host;
        a.memorySize = 64L << 20;
        a.cpuNum = 1;
        a.volumeUuids = volumes;
        return a.call(as(session)).inventory.uuid;
    }

    /** Sets kvm/{@code name} on the volume (UpdateResourceConfig); anything but 200 fails the test. */
    public void volumeConfig(String session, String volumeUuid, String name, String value) {
        Http.Response r = http.put("/v1/resource-configurations/kvm/" + name + "/" + volumeUuid + "/actions", session,
                "{\"updateResourceConfig\":{\"value\":\"" + value + "\"}}");
        if (r.status() != 200) throw new AssertionError(name + " on " + volumeUuid + ": " + r.status() + " " + r.raw());
    }

    public JsonNode ioMode(String session, String volumeUuid) {
        Http.Response r = http.get("/v1/volumes/" + volumeUuid + "/io-mode", session);
        if (r.status() != 200) throw new AssertionError("io-mode of " + volumeUuid + ": " + r.status() + " " + r.raw());
        return r.body();
    }
}
