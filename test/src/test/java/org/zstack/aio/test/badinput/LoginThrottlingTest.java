package org.zstack.aio.test.badinput;

import org.junit.jupiter.api.Test;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.TestDatabase;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 11 defect 8 on the real server: failed logins are limited per account and client address, and per client
 * address (429 with Retry-After, even for the right password once limited), an unknown account name costs as much
 * time as a wrong password, and a password past 1024 bytes is a 400 (bcrypt sees a fixed-length digest of it, so there is no 72-byte
 * cut; ZStack's clients send a 128-character SHA-512 hex).
 */
class LoginThrottlingTest {

    static String login(String name, String password) {
        return "{\"logInByAccount\":{\"accountName\":\"" + name + "\",\"password\":\"" + password + "\"}}";
    }

    @Test
    void wrongPasswordsLockTheAccountThenTheClient() throws Exception {
        try (TestDatabase db = TestDatabase.h2(); RunningServer server = RunningServer.start(db)) {
            Http http = new Http(server.baseUrl());
            assertThat(http.put("/v1/accounts/login", null, login("admin", RunningServer.ADMIN_PASSWORD)).status()).isEqualTo(200);
            for (int i = 0; i < 5; i++) {
                assertThat(http.put("/v1/accounts/login", null, login("admin", "wrong-" + i)).status()).isEqualTo(401);
            }
            HttpResponse<String> limited = raw(server, login("admin", RunningServer.ADMIN_PASSWORD));
            assertThat(limited.statusCode()).as(limited.body()).isEqualTo(429);
            assertThat(limited.body()).contains("\"code\":\"AIO.1102\"");
            long retry = Long.parseLong(limited.headers().firstValue("Retry-After").orElseThrow());
            assertThat(retry).isBetween(1L, 300L);

            // per client: 20 failures over many names lock this address out for every name
            for (int i = 0; i < 15; i++) {
                assertThat(http.put("/v1/accounts/login", null, login("nobody-" + i, "x")).status()).isEqualTo(401);
            }
            Http.Response other = http.put("/v1/accounts/login", null, login("someone-else", "x"));
            assertThat(other.status()).as(other.raw()).isEqualTo(429);
        }
    }

    /**
     * Issue 29: the account is counted per client address, so an attacker hammering admin from 127.0.0.2 is stopped
     * there while the administrator still logs in from 127.0.0.3 (before: 5 failures from anywhere locked admin out
     * everywhere for 5 minutes). The attacker cannot borrow another address with X-Forwarded-For: the server does not
     * trust that header.
     */
    @Test
    void anAttackerHammeringAdminFromOneAddressDoesNotLockTheAdminOutFromAnother() throws Exception {
        try (TestDatabase db = TestDatabase.h2(); RunningServer server = RunningServer.start(db)) {
            InetAddress attacker = InetAddress.getByName("127.0.0.2");
            InetAddress adminsOwn = InetAddress.getByName("127.0.0.3");
            for (int i = 0; i < 5; i++) {
                assertThat(loginFrom(server, attacker, "admin", "guess-" + i, Map.of()).status()).isEqualTo(401);
            }
            RawHttp.Response stopped = loginFrom(server, attacker, "admin", "guess-5",
                    Map.of("X-Forwarded-For", adminsOwn.getHostAddress()));
            assertThat(stopped.status()).as(stopped.body()).isEqualTo(429);
            assertThat(stopped.header("Retry-After")).isNotNull();
            // stopped even with the right password: the attacker's address learns nothing more
            assertThat(loginFrom(server, attacker, "admin", RunningServer.ADMIN_PASSWORD, Map.of()).status()).isEqualTo(429);

            RawHttp.Response admin = loginFrom(server, adminsOwn, "admin", RunningServer.ADMIN_PASSWORD, Map.of());
            assertThat(admin.status()).as(admin.body()).isEqualTo(200);
            assertThat(admin.json().path("inventory").path("uuid").asText()).isNotBlank();
            // the admin's own address keeps its own count: a typo there is one failure of five, not a lock-out
            assertThat(loginFrom(server, adminsOwn, "admin", "typo", Map.of()).status()).isEqualTo(401);
            assertThat(loginFrom(server, adminsOwn, "admin", RunningServer.ADMIN_PASSWORD, Map.of()).status()).isEqualTo(200);
        }
    }

    static RawHttp.Response loginFrom(RunningServer server, InetAddress from, String name, String password,
                                      Map<String, String> extraHeaders) {
        Map<String, String> headers = new LinkedHashMap<>(extraHeaders);
        headers.put("Content-Type", "application/json");
        return RawHttp.send(from, server.port(), new RawHttp.Request("PUT", "/v1/accounts/login", headers,
                login(name, password).getBytes(StandardCharsets.UTF_8), false));
    }

    @Test
    void unknownNamesCostTheSameAsWrongPasswordsAndLongPasswordsAre400() throws Exception {
        try (TestDatabase db = TestDatabase.h2();
             RunningServer server = RunningServer.start(db, Map.of("aio.login.max-failures-per-account-and-client", "1000",
                     "aio.login.max-failures-per-client", "1000"))) {
            Http http = new Http(server.baseUrl());
            for (int i = 0; i < 10; i++) { // warm up both paths
                http.put("/v1/accounts/login", null, login("admin", "wrong"));
                http.put("/v1/accounts/login", null, login("ghost", "wrong"));
            }
            long[] known = new long[25];
            long[] unknown = new long[25];
            for (int i = 0; i < known.length; i++) {
                known[i] = timed(http, login("admin", "wrong-" + i));
                unknown[i] = timed(http, login("ghost-" + i, "wrong-" + i));
            }
            long k = median(known);
            long u = median(unknown);
            System.out.printf("login median: wrong password %.2f ms, unknown account %.2f ms (25 each)%n", k / 1e6, u / 1e6);
            // before: 0.6 ms vs 65 ms; a bcrypt check either way keeps them within a factor of two
            assertThat((double) u / k).isBetween(0.5, 2.0);

            Http.Response tooLong = http.put("/v1/accounts/login", null, login("admin", "a".repeat(1025)));
            assertThat(tooLong.status()).as(tooLong.raw()).isEqualTo(400);
            Http.Response multiByte = http.put("/v1/accounts/login", null, login("admin", "é".repeat(513))); // 1026 bytes
            assertThat(multiByte.status()).isEqualTo(400);
            Http.Response past72 = http.put("/v1/accounts/login", null, login("admin", "a".repeat(73)));
            assertThat(past72.status()).as("checked in full, not cut at 72 bytes: " + past72.raw()).isEqualTo(401);
            assertThat(http.put("/v1/accounts/login", null, login("admin", RunningServer.ADMIN_PASSWORD)).status()).isEqualTo(200);
        }
    }

    static long timed(Http http, String body) {
        long t0 = System.nanoTime();
        int status = http.put("/v1/accounts/login", null, body).status();
        long t = System.nanoTime() - t0;
        assertThat(status).isEqualTo(401);
        return t;
    }

    static long median(long[] a) {
        long[] s = a.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    static HttpResponse<String> raw(RunningServer server, String body) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/accounts/login"))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
