package org.zstack.aio.zstacksdk;

import org.junit.jupiter.api.Test;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.QemuProcess;
import org.zstack.aio.test.support.RealComponents;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.TestDatabase;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** ZStack's SDK against plugin-aio on the real MariaDB, its VMs real QEMU processes under qemu:///system. */
class ZStackSdkMariaDbTest extends ZStackSdkContract {

    @Override
    TestDatabase database() throws Exception {
        RealComponents.require(QemuProcess.libvirtAnswers(), "libvirtd at qemu:///system", "run bin/lib/setup-libvirt.sh as root");
        return TestDatabase.mariadb();
    }

    @Override
    Map<String, String> serverSettings() {
        return Map.of("AIO_LIBVIRT_URI", "qemu:///system");
    }

    @Override
    int agentPort() {
        return server.agentPort();
    }

    @Override
    String agentEnrollment() {
        return server.agentEnrollment();
    }

    @Override
    void assertQemu(String vmUuid, boolean running) {
        assertThat(QemuProcess.running(vmUuid)).as("QEMU process of " + vmUuid).isEqualTo(running);
        if (running) assertThat(QemuProcess.of(vmUuid).pid()).isPositive();
    }

    /** A job accepted by one management node is answered by another: the job lives in the shared database. */
    @Test
    void anotherManagementNodeAnswersThePoll() throws Exception {
        String vm = sdk.vm(admin, "vm-two-nodes", host, createVolume("two-nodes", 16 * MIB, psC).uuid);
        String job = UUID.randomUUID().toString().replace("-", "");
        try (RunningServer second = RunningServer.start(db, serverSettings())) {
            HttpResponse<String> accepted = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/vm-instances/" + vm + "/actions"))
                            .header("Authorization", "OAuth " + admin).header("X-Job-UUID", job)
                            .header("Content-Type", "application/json")
                            .PUT(HttpRequest.BodyPublishers.ofString("{\"startVmInstance\":{}}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(accepted.statusCode()).isEqualTo(202);
            Http other = new Http(second.baseUrl());
            Http.Response r = other.get("/v1/api-jobs/" + job, admin);
            for (int i = 0; i < 600 && r.status() == 202; i++) {
                Thread.sleep(100);
                r = other.get("/v1/api-jobs/" + job, admin);
            }
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            assertThat(r.body().path("inventory").path("state").asText()).isEqualTo("Running");
            assertThat(r.raw()).isEqualTo(sdk.http.get("/v1/api-jobs/" + job, admin).raw());
            assertQemu(vm, true);
            assertThat(sdk.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"stopVmInstance\":{}}").status()).isEqualTo(200);
        }
    }
}
