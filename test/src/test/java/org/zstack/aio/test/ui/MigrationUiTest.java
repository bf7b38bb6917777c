package org.zstack.aio.test.ui;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.zstack.aio.agent.AgentSettings;
import org.zstack.aio.agent.KvmAgent;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13's UI in a real headless Chromium: the VMs page lists a VM's migration targets with what each disk would run
 * on each host and why, exactly as GET …/migration-target-hosts says; a host that cannot take the VM shows why and
 * its Migrate button is disabled; Migrate moves a stopped VM (cold: no libvirt work), which the API then confirms.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MigrationUiTest {

    TestDatabase db;
    RunningServer server;
    KvmAgent agentB;
    Fixture f;
    Http http;
    Browser b;
    String admin;
    String hostA;
    String hostB;
    String sharedVol;
    String movable;
    String pinned;

    @BeforeAll
    void boot() throws Exception {
        Browser.requireChromium();
        db = TestDatabase.h2();
        server = RunningServer.start(db);
        agentB = KvmAgent.start(AgentSettings.defaults().withBindAddress("127.0.0.1").withPort(0)
                .withDataDir(Path.of(Storage.dir("ui-agent-b"))));
        f = new Fixture(server);
        http = f.http;
        admin = f.adminSession();
        String shared = f.primaryStorage(admin, "smp", "SharedMountPoint", Storage.dir("ui-smp"));
        String local = f.primaryStorage(admin, "local", "LocalStorage", Storage.dir("ui-mig-local"));
        hostA = f.localHost(admin);
        hostB = f.host(admin, agentB.port(), agentB.enrollmentToken());
        try (Connection c = db.connect()) { // B's kernel forbids io_uring (as a probe there would report)
            c.createStatement().executeUpdate("UPDATE HostIoCapabilitiesVO SET ioUringDisabled = 2 WHERE hostUuid = '" + hostB + "'");
        }
        sharedVol = f.volume(admin, "shared-disk", "qcow2", "full", shared, hostA);
        Http.Response r = http.put("/v1/resource-configurations/kvm/vm.ioMode/" + sharedVol + "/actions", admin,
                "{\"updateResourceConfig\":{\"value\":\"io_uring\"}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        movable = f.vm(admin, "vm-movable", hostA, List.of(sharedVol));
        pinned = f.vm(admin, "vm-pinned", hostA, List.of(f.volume(admin, "local-disk", "qcow2", "full", local, hostA)));
        b = Browser.open(server.baseUrl());
    }

    @AfterAll
    void shutdown() throws Exception {
        if (b != null) b.close();
        if (server != null) server.close();
        if (agentB != null) agentB.close();
        if (db != null) db.close();
    }

    @Test
    void targetsShowEachDiskPerHostAsTheApiDecidesAndMigrateMovesTheVm() throws Exception {
        b.viewport(1280, 800);
        b.login("admin", RunningServer.ADMIN_PASSWORD);
        b.page("vms");

        JsonNode api = target(movable, hostB);
        JsonNode disk = api.path("ioModes").get(0);
        assertThat(disk.path("effective").asText()).as("the API decides for B: io_uring is off there").isEqualTo("native");
        b.visible("[data-targets-of='" + movable + "']").click();
        b.settled();
        WebElement row = b.visible("[data-migration='" + movable + "'] [data-target='" + hostB + "']");
        WebElement shown = row.findElement(By.cssSelector("[data-disk='" + sharedVol + "']"));
        assertThat(shown.getText()).contains("shared-disk").contains(disk.path("effective").asText()).contains("asked io_uring");
        assertThat(row.findElement(By.cssSelector("[data-reason='" + sharedVol + "']")).getText())
                .isEqualTo(disk.path("reason").asText());
        assertThat(b.all("[data-migration='" + movable + "'] [data-target='" + hostA + "']")).as("not its own host").isEmpty();
        WebElement migrate = row.findElement(By.cssSelector("[data-migrate-to='" + hostB + "']"));
        assertThat(migrate.isEnabled()).isTrue();
        b.fullScreenshot("20-vm-migration-targets-1280");

        b.visible("[data-targets-of='" + pinned + "']").click();
        b.settled();
        String blocker = target(pinned, hostB).path("migrationBlocker").asText();
        assertThat(blocker).contains("LocalStorage");
        assertThat(b.text("[data-migration='" + pinned + "'] [data-blocker='" + hostB + "']")).isEqualTo(blocker);
        assertThat(b.visible("[data-migration='" + pinned + "'] [data-migrate-to='" + hostB + "']").isEnabled()).isFalse();

        b.visible("[data-targets-of='" + movable + "']").click();
        b.settled();
        b.visible("[data-migration='" + movable + "'] [data-migrate-to='" + hostB + "']").click();
        b.waitFor(d -> d.findElement(By.id("page-status")).getText().contains("is now on"));
        b.settled();
        assertThat(http.get("/v1/vm-instances/" + movable, admin).body().path("inventory").path("hostUuid").asText())
                .isEqualTo(hostB);
        assertThat(b.text("[data-host-of='" + movable + "']")).isEqualTo("kvm-" + agentB.port());
        assertThat(b.all("[data-migration='" + movable + "'] [data-target='" + hostA + "']")).as("A is a target now").hasSize(1);
        b.screenshot("21-vm-migrated-1280");

        b.viewport(420, 900);
        b.fullScreenshot("22-vm-migration-targets-420");
    }

    JsonNode target(String vm, String host) {
        Http.Response r = http.get("/v1/vm-instances/" + vm + "/migration-target-hosts", admin);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        for (JsonNode h : r.body().path("inventories")) if (h.path("uuid").asText().equals(host)) return h;
        throw new AssertionError("host " + host + " is not listed: " + r.raw());
    }
}
