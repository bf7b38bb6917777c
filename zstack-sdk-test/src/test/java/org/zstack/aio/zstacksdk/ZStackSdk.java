package org.zstack.aio.zstacksdk;

import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.sdk.ErrorCode;
import org.zstack.sdk.LogInByAccountAction;
import org.zstack.sdk.ZSClient;
import org.zstack.sdk.ZSConfig;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ZStack's SDK pointed at a running plugin-aio server, configured as a ZStack user would (host and port only: the
 * SDK's own 10 s read timeout stays), and what a test needs beside it: raw HTTP for building inventory the SDK has no
 * action for (hosts by agent port, plugin-aio VMs), never for the calls under test.
 */
final class ZStackSdk {

    final RunningServer server;
    final Http http;

    ZStackSdk(RunningServer server) {
        this.server = server;
        this.http = new Http(server.baseUrl());
        // ZSClient is configured statically, as in ZStack; each test class points it at its own server
        ZSClient.configure(new ZSConfig.Builder().setHostname("127.0.0.1").setPort(server.port())
                .setDefaultPollingInterval(200, TimeUnit.MILLISECONDS)
                .setDefaultPollingTimeout(5, TimeUnit.MINUTES).build());
    }

    String login(String account, String password) {
        LogInByAccountAction a = new LogInByAccountAction();
        a.accountName = account;
        a.password = password;
        LogInByAccountAction.Result r = a.call();
        assertThat(r.error).as("login of %s", account).isNull();
        return r.value.getInventory().getUuid();
    }

    String admin() {
        return login("admin", RunningServer.ADMIN_PASSWORD);
    }

    static String sha512Hex(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-512").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    /** Builds what ZStack's SDK cannot (plugin-aio's own shapes), through the raw API. */
    String post(String path, String session, String body) {
        Http.Response r = http.post(path, session, body);
        assertThat(r.status()).as("POST %s: %s", path, r.raw()).isEqualTo(200);
        return r.body().path("inventory").path("uuid").asText();
    }

    String primaryStorage(String admin, String name, String type, String url) {
        return post("/v1/primary-storage", admin,
                "{\"params\":{\"name\":\"" + name + "\",\"type\":\"" + type + "\",\"url\":\"" + url + "\"}}");
    }

    String host(String admin, String name, int agentPort, String agentEnrollment) {
        return post("/v1/hosts/kvm", admin, "{\"params\":{\"name\":\"" + name + "\",\"managementIp\":\"127.0.0.1\",\"agentPort\":"
                                            + agentPort + ",\"agentEnrollment\":\"" + agentEnrollment + "\"}}");
    }

    String vm(String session, String name, String host, String... volumes) {
        return post("/v1/vm-instances", session, "{\"params\":{\"name\":\"" + name + "\",\"hostUuid\":\"" + host
                                                 + "\",\"memorySize\":67108864,\"cpuNum\":1,\"volumeUuids\":[\""
                                                 + String.join("\",\"", volumes) + "\"]}}");
    }

    /** What the SDK shows of an error it could not map (any non-job 4xx): the raw body, in details. */
    static void assertHttpError(ErrorCode e, int status, String aioCode, String... mentions) {
        assertThat(e).as("an error").isNotNull();
        assertThat(e.getCode()).isEqualTo("sdk.1000");
        assertThat(e.getDescription()).contains("[" + status + "]");
        assertThat(e.getDetails()).contains("\"code\":\"" + aioCode + "\"");
        for (String m : mentions) assertThat(e.getDetails()).contains(m);
    }
}
