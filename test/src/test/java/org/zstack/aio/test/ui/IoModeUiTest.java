package org.zstack.aio.test.ui;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 5 in a real headless Chromium against the real server (H2): the admin changes the global io mode after seeing
 * its impact (cancel, then confirm), overrides a primary storage and a volume, is refused native on a writeback-cache
 * volume with the reason on the page; a tenant sees only its own volumes and no admin controls. Every page is saved
 * as a screenshot under target/screenshots, at 1280x800 and at 420px wide.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IoModeUiTest {

    static final String IO = "vm.ioMode";

    TestDatabase db;
    RunningServer server;
    Fixture f;
    Http http;
    Browser b;

    String admin;
    String tenant;
    String local;
    String nfs;
    String block;
    String host;
    String dbFull;       // admin, qcow2 full on LocalStorage, in a running VM
    String scratch;      // admin, qcow2 sparse on LocalStorage, in the running VM
    String writeback;    // admin, qcow2 full on NFS, cache mode writeback
    String lun;          // admin, raw full on SharedBlock
    String tenantFull;   // tenant, qcow2 full on LocalStorage
    String tenantSparse; // tenant, qcow2 sparse on LocalStorage
    String vm;

    @BeforeAll
    void boot() throws Exception {
        Browser.requireChromium(); // before the server boots
        db = TestDatabase.h2();
        server = RunningServer.start(db);
        f = new Fixture(server);
        http = f.http;
        admin = f.adminSession();
        tenant = f.tenant(admin, "tenant-ui");
        local = f.primaryStorage(admin, "local-ssd", "LocalStorage", Storage.dir("ui-local"));
        nfs = f.primaryStorage(admin, "nfs-shared", "NFS", Storage.dir("ui-nfs"));
        block = f.primaryStorage(admin, "san-block", "SharedBlock", Storage.dir("ui-block"));
        host = f.localHost(admin);
        dbFull = f.volume(admin, "db-full", "qcow2", "full", local, host);
        scratch = f.volume(admin, "scratch-sparse", "qcow2", "none", local, host);
        writeback = f.volume(admin, "cache-writeback", "qcow2", "full", nfs, host);
        lun = f.volume(admin, "san-lun", "raw", "full", block, host);
        tenantFull = f.volume(tenant, "tenant-disk", "qcow2", "full", local, host);
        tenantSparse = f.volume(tenant, "tenant-scratch", "qcow2", "none", local, host);
        vm = f.vm(admin, "vm-web", host, List.of(dbFull, scratch));
        Http.Response start = http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
        assertThat(start.status()).as(start.raw()).isEqualTo(200);
        b = Browser.open(server.baseUrl());
    }

    @AfterAll
    void shutdown() throws Exception {
        if (b != null) b.close();
        if (server != null) server.close();
        if (db != null) db.close();
    }

    /** Each test starts from the defaults, with the writeback cache mode on its volume, at 1280x800, logged out. */
    @BeforeEach
    void defaults() throws Exception {
        db.resetConfigs();
        Http.Response r = http.put("/v1/resource-configurations/kvm/vm.cacheMode/" + writeback + "/actions", admin,
                "{\"updateResourceConfig\":{\"value\":\"writeback\"}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        b.viewport(1280, 800);
        b.go("");
        b.js("sessionStorage.clear()");
        b.go("");
    }

    @AfterEach
    void noRawJsonOnThePage() {
        for (String id : List.of("page-error", "page-status", "login-error")) {
            String t = (String) b.js("const e = document.getElementById(arguments[0]); return e ? e.textContent : ''", id);
            assertThat(t).as("#" + id).doesNotContain("{").doesNotContain("}").doesNotContain("\"code\"");
        }
    }

    // ---- global settings ----

    @Test
    @Order(1)
    void adminSeesTheImpactOfAGlobalChangeCancelsThenConfirms() throws Exception {
        b.login("admin", RunningServer.ADMIN_PASSWORD);
        assertThat(b.driver.findElement(By.tagName("body")).getDomAttribute("data-page")).isEqualTo("global");
        for (String name : List.of("vm.ioMode", "vm.ioMode.onUnsatisfied", "vm.ioMode.native.allowFalloc", "vm.cacheMode")) {
            WebElement card = b.visible("[data-config-card='kvm/" + name + "']");
            JsonNode inv = http.get("/v1/global-configurations/kvm/" + name, admin).body().path("inventory");
            assertThat(card.getText()).contains(inv.path("description").asText()).contains(inv.path("defaultValue").asText());
            // every control has a label
            String selectId = card.findElement(By.tagName("select")).getDomAttribute("id");
            assertThat(card.findElements(By.cssSelector("label[for='" + selectId + "']"))).hasSize(1);
        }
        b.screenshot("01-global-1280");

        // the impact of threads -> native, as the API computes it
        JsonNode impact = http.get("/v1/io-mode/impact?category=kvm&name=vm.ioMode&value=native", admin).body().path("inventory");
        assertThat(impact.path("proposed").path("reasons").size()).as("the fixture makes native fall back").isPositive();

        reviewGlobal("vm.ioMode", "native");
        WebElement dialog = b.visible("#impact-dialog");
        assertThat(b.text("#impact-title")).contains("threads").contains("native");
        assertImpactShown(dialog, impact);
        b.screenshot("02-global-impact-1280");

        b.visible("#impact-cancel").click();
        b.waitFor(d -> !d.findElement(By.id("impact-dialog")).isDisplayed());
        assertThat(globalValue("vm.ioMode")).isEqualTo("threads");
        assertThat(b.text("[data-current='kvm/vm.ioMode']")).isEqualTo("threads");
        assertThat(b.select("select[data-config='kvm/vm.ioMode']").getFirstSelectedOption().getDomAttribute("value")).isEqualTo("threads");
        assertThat(b.text("#page-status")).contains("Not changed");

        reviewGlobal("vm.ioMode", "native");
        b.visible("#impact-confirm").click();
        b.waitFor(d -> d.findElement(By.id("page-status")).getText().contains("is now native"));
        assertThat(globalValue("vm.ioMode")).isEqualTo("native");
        assertThat(b.text("[data-current='kvm/vm.ioMode']")).isEqualTo("native");
    }

    @Test
    @Order(2)
    void escapeClosesTheImpactDialogAsCancel() {
        b.login("admin", RunningServer.ADMIN_PASSWORD);
        reviewGlobal("vm.ioMode.onUnsatisfied", "fail");
        b.visible("#impact-dialog");
        b.driver.switchTo().activeElement().sendKeys(Keys.ESCAPE);
        b.waitFor(d -> !d.findElement(By.id("impact-dialog")).isDisplayed());
        assertThat(globalValue("vm.ioMode.onUnsatisfied")).isEqualTo("fallback");
    }

    private void reviewGlobal(String name, String value) {
        b.select("select[data-config='kvm/" + name + "']").selectByValue(value);
        WebElement review = b.visible("[data-review='kvm/" + name + "']");
        b.waitFor(d -> review.isEnabled());
        review.click();
        b.visible("#impact-dialog [data-summary]");
    }

    private void assertImpactShown(WebElement dialog, JsonNode impact) {
        JsonNode now = impact.path("current");
        JsonNode after = impact.path("proposed");
        Set<String> modes = new HashSet<>();
        now.path("byEffective").fieldNames().forEachRemaining(modes::add);
        after.path("byEffective").fieldNames().forEachRemaining(modes::add);
        for (String m : modes) {
            assertThat(dialog.findElement(By.cssSelector("[data-now='" + m + "']")).getText())
                    .isEqualTo(String.valueOf(now.path("byEffective").path(m).asLong(0)));
            assertThat(dialog.findElement(By.cssSelector("[data-after='" + m + "']")).getText())
                    .isEqualTo(String.valueOf(after.path("byEffective").path(m).asLong(0)));
        }
        assertThat(dialog.findElement(By.cssSelector("[data-after='fallbacks']")).getText())
                .isEqualTo(after.path("fallbacks").asText());
        assertThat(dialog.findElement(By.cssSelector("[data-after='refused']")).getText())
                .isEqualTo(after.path("refused").asText());
        for (JsonNode r : after.path("reasons")) {
            long n = r.path("volumes").asLong();
            String li = dialog.findElement(By.cssSelector("li[data-reason='" + r.path("check").asText() + "']")).getText();
            assertThat(li).startsWith(n + " volume" + (n == 1 ? "" : "s") + ": " + r.path("check").asText())
                    .contains(r.path("example").asText());
        }
        assertThat(dialog.findElement(By.cssSelector("[data-summary]")).getText())
                .contains(String.valueOf(impact.path("volumes").asLong()));
    }

    // ---- primary storage ----

    @Test
    @Order(3)
    void overridingAPrimaryStorageChangesItsVolumesEffectiveModes() throws Exception {
        b.login("admin", RunningServer.ADMIN_PASSWORD);
        b.page("storage");
        assertThat(b.all("#storage-table tbody tr")).hasSize(3);
        assertThat(b.text("[data-ps='" + local + "']")).contains("local-ssd").contains("LocalStorage").contains("file");
        assertThat(b.text("[data-ps='" + block + "']")).contains("SharedBlock").contains("block");
        assertThat(b.text("[data-count='" + local + "']")).isEqualTo("4");
        assertThat(b.text("[data-effective='" + local + "']")).contains("threads").contains("4").doesNotContain("native");
        b.screenshot("03-storage-1280");

        b.select("select[data-override='" + local + "']").selectByValue("native");
        b.visible("[data-apply='" + local + "']").click();
        b.waitFor(d -> d.findElement(By.id("page-status")).getText().contains("local-ssd now requests native"));
        assertThat(overrideOf(local).path("effectiveConfigs").get(0).path("resourceType").asText()).isEqualTo("PrimaryStorageVO");

        // the page shows what the API decides for its volumes now
        Map<String, Long> expected = effectiveCounts(List.of(dbFull, scratch, tenantFull, tenantSparse));
        assertThat(expected).as("full images get native, sparse ones fall back").containsKey("native");
        String cell = b.text("[data-effective='" + local + "']");
        expected.forEach((mode, n) -> assertThat(cell).contains(mode + " " + n));
        assertThat(b.select("select[data-override='" + local + "']").getFirstSelectedOption().getDomAttribute("value")).isEqualTo("native");
        b.screenshot("04-storage-overridden-1280");

        // and the volumes page names the primary storage as the source
        b.page("volumes");
        assertThat(b.text("[data-requested='" + dbFull + "']")).contains("native").contains("primary storage override");
        assertThat(b.text("[data-effective='" + dbFull + "']")).contains(preview(dbFull).path("effective").asText());
        assertThat(b.text("[data-reason='" + scratch + "']")).isEqualTo(preview(scratch).path("reason").asText());

        // back to inherit
        b.page("storage");
        b.select("select[data-override='" + local + "']").selectByValue("inherit");
        b.visible("[data-apply='" + local + "']").click();
        b.waitFor(d -> d.findElement(By.id("page-status")).getText().contains("inherits"));
        assertThat(overrideOf(local).path("effectiveConfigs").get(0).path("resourceType").asText()).isEqualTo("global");
    }

    // ---- volumes ----

    @Test
    @Order(4)
    void overridingOneVolumeShowsItsNewDecisionAndTheNextStartMarker() throws Exception {
        b.login("admin", RunningServer.ADMIN_PASSWORD);
        b.page("volumes");
        assertThat(b.all("#volume-table tbody tr")).hasSize(6); // the admin sees every volume
        assertThat(b.text("[data-requested='" + dbFull + "']")).contains("threads").contains("global setting");
        assertThat(b.all("[data-pending]")).isEmpty();
        String row = b.text("tr[data-volume='" + dbFull + "']");
        assertThat(row).contains("vm-web").contains("Running").contains("full").contains("none").contains("/ 16.0 MiB");
        b.screenshot("05-volumes-1280");

        b.select("select[data-override='" + dbFull + "']").selectByValue("native");
        b.visible("[data-apply='" + dbFull + "']").click();
        b.waitFor(d -> d.findElement(By.id("page-status")).getText().contains("db-full now requests native"));
        JsonNode d = preview(dbFull);
        assertThat(d.path("source").asText()).isEqualTo("VolumeVO");
        assertThat(b.text("[data-requested='" + dbFull + "']")).contains("native").contains("volume override");
        assertThat(b.text("[data-effective='" + dbFull + "']")).startsWith(d.path("effective").asText());
        assertThat(b.text("[data-reason='" + dbFull + "']")).isEqualTo(d.path("reason").asText());
        // the running VM got threads at its start; the marker shows when the next start gives something else
        String applied = http.get("/v1/volumes/" + dbFull, admin).body().path("inventory").path("ioModeDecision").path("appliedIo").asText();
        boolean differs = !applied.equals(d.path("effective").asText());
        assertThat(b.all("[data-pending='" + dbFull + "']")).hasSize(differs ? 1 : 0);
        if (differs) assertThat(b.text("[data-pending='" + dbFull + "']")).contains("takes effect at next start").contains(applied);
        // the live domain's io/cache (read back by the tracker) shows next to it, flagged when it differs
        JsonNode live = http.get("/v1/volumes/" + dbFull, admin).body().path("inventory").path("running");
        String liveIo = live.path("io").isNull() ? "threads" : live.path("io").asText();
        assertThat(b.text("[data-running='" + dbFull + "']")).contains("live domain: io=").contains(live.path("cache").asText());
        assertThat(b.visible("[data-running='" + dbFull + "']").getAttribute("data-running-differs"))
                .isEqualTo(String.valueOf(!liveIo.equals(d.path("effective").asText())));
        // the volume in no running VM gets no marker whatever it would get
        assertThat(b.all("[data-pending='" + tenantFull + "']")).isEmpty();
        assertThat(b.all("[data-running='" + tenantFull + "']")).isEmpty();
        b.fullScreenshot("06-volumes-overridden-1280");

        // the filters: by primary storage, by VM, by effective mode
        b.select("#filter-ps").selectByValue(nfs); // storage and VM filters are server-side: the page is fetched again
        b.settled();
        assertThat(visibleVolumes()).containsExactly(writeback);
        assertThat(b.text("#volume-count")).startsWith("Volumes 1–1 of 1 matching the filters");
        b.select("#filter-ps").selectByValue("");
        b.settled();
        b.select("#filter-vm").selectByValue(vm);
        b.settled();
        assertThat(visibleVolumes()).containsExactlyInAnyOrder(dbFull, scratch);
        b.select("#filter-vm").selectByValue("");
        b.settled();
        String mode = d.path("effective").asText();
        b.select("#filter-mode").selectByValue(mode);
        Set<String> withMode = new HashSet<>();
        for (JsonNode p : http.get("/v1/io-mode/previews", admin).body().path("inventories")) {
            if (mode.equals(p.path("effective").asText())) withMode.add(p.path("volumeUuid").asText());
        }
        assertThat(visibleVolumes()).containsExactlyInAnyOrderElementsOf(withMode);
        b.select("#filter-mode").selectByValue("");
    }

    @Test
    @Order(5)
    void nativeOnAWritebackCacheVolumeIsRefusedWithItsReason() throws Exception {
        b.login("admin", RunningServer.ADMIN_PASSWORD);
        b.page("volumes");
        assertThat(b.text("[data-cache='" + writeback + "']")).isEqualTo("writeback");
        b.select("select[data-override='" + writeback + "']").selectByValue("native");
        b.visible("[data-apply='" + writeback + "']").click();
        String error = b.text("#page-error");
        String api = http.put("/v1/resource-configurations/kvm/vm.ioMode/" + writeback + "/actions", admin,
                "{\"updateResourceConfig\":{\"value\":\"native\"}}").body().path("error").path("description").asText();
        assertThat(error).startsWith("cache-writeback: ").contains("writeback").containsIgnoringCase(start(api));
        assertThat(error).doesNotContain("{").doesNotContain("}").doesNotContain("AIO.1005");
        assertThat(b.text("[data-row-error='" + writeback + "']")).contains("writeback");
        // refused: nothing changed, and the control shows the value that is in force
        assertThat(overrideOf(writeback).path("effectiveConfigs").get(0).path("resourceType").asText()).isNotEqualTo("VolumeVO");
        assertThat(b.select("select[data-override='" + writeback + "']").getFirstSelectedOption().getDomAttribute("value")).isEqualTo("inherit");
        b.screenshot("07-volumes-refused-1280");
    }

    @Test
    @Order(6)
    void aWrongPasswordIsAReadableMessage() throws Exception {
        b.go("");
        b.visible("#login-name").sendKeys("admin");
        b.driver.findElement(By.id("login-password")).sendKeys("not-the-password");
        b.driver.findElement(By.id("login-password")).sendKeys(Keys.ENTER); // the form submits from the keyboard
        String error = b.text("#login-error");
        assertThat(error).isNotBlank().doesNotContain("{").doesNotContain("}");
        assertThat(b.shown("#nav")).isFalse();
        b.screenshot("00-login-error-1280");
    }

    // ---- hosts ----

    @Test
    @Order(7)
    void hostsShowTheirIoCapabilitiesAndWhyAModeIsUnusable() throws Exception {
        b.login("admin", RunningServer.ADMIN_PASSWORD);
        b.page("hosts");
        JsonNode caps = http.get("/v1/hosts/" + host, admin).body().path("inventory").path("ioCapabilities");
        String card = b.text("[data-host='" + host + "']");
        assertThat(card).contains(caps.path("kernel").asText()).contains(caps.path("qemu").asText())
                .contains(caps.path("libvirt").asText()).contains(caps.path("ioUringReason").asText());
        String ioUring = b.text("[data-host='" + host + "'] [data-cap='io_uring']");
        assertThat(ioUring).contains(caps.path("ioUringUsable").asBoolean() ? "usable" : "not usable");
        if (!caps.path("qemuNative").asBoolean(true)) {
            assertThat(b.text("[data-host='" + host + "'] [data-cap='native']")).contains(caps.path("qemuNativeError").asText());
        }
        b.screenshot("08-hosts-1280");
    }

    // ---- tenants ----

    @Test
    @Order(8)
    void aTenantSeesOnlyItsVolumesAndNoAdminControls() throws Exception {
        b.login("tenant-ui", "tenant-password-tenant-ui");
        assertThat(b.driver.findElement(By.tagName("body")).getDomAttribute("data-page")).isEqualTo("volumes");
        assertThat(b.shown("#nav a[data-page='global']")).isFalse();
        assertThat(b.shown("#nav a[data-page='storage']")).isFalse();
        assertThat(b.shown("#nav a[data-page='hosts']")).isFalse();
        assertThat(b.shown("#nav a[data-page='audit']")).isFalse();
        assertThat(visibleVolumes()).containsExactlyInAnyOrder(tenantFull, tenantSparse);
        assertThat(b.driver.getPageSource()).doesNotContain(dbFull).doesNotContain(writeback).doesNotContain("db-full");
        b.screenshot("09-tenant-volumes-1280");

        // typing an admin page's address lands on the volumes page, with no global or storage controls
        b.go("#/global");
        b.settled();
        b.go("#/storage");
        b.settled();
        assertThat(b.driver.findElement(By.tagName("body")).getDomAttribute("data-page")).isEqualTo("volumes");
        assertThat(b.all("[data-config]")).isEmpty();
        assertThat(b.all("#storage-table")).isEmpty();
        assertThat(b.all("#impact-dialog[open]")).isEmpty();

        // the tenant overrides its own volume
        b.select("select[data-override='" + tenantFull + "']").selectByValue("auto");
        b.visible("[data-apply='" + tenantFull + "']").click();
        b.waitFor(d -> d.findElement(By.id("page-status")).getText().contains("tenant-disk now requests auto"));
        assertThat(overrideOf(tenantFull).path("effectiveConfigs").get(0).path("resourceType").asText()).isEqualTo("VolumeVO");

        b.logout();
        assertThat(b.js("return sessionStorage.getItem('aio.session')")).isNull();
    }

    // ---- narrow window ----

    @Test
    @Order(9)
    void everyPageIsReadableInA420PixelWindow() throws Exception {
        b.viewport(420, 800);
        b.go("");
        b.screenshot("10-login-420");
        b.login("admin", RunningServer.ADMIN_PASSWORD);
        for (String page : List.of("global", "storage", "volumes", "hosts", "audit")) {
            b.page(page);
            long overflow = ((Number) b.js("return document.documentElement.scrollWidth - window.innerWidth")).longValue();
            assertThat(overflow).as(page + " scrolls sideways at 420px").isLessThanOrEqualTo(0);
            b.screenshot("11-" + page + "-420");
        }
        b.page("global");
        reviewGlobal("vm.ioMode", "auto");
        long overflow = ((Number) b.js("const d = document.getElementById('impact-dialog'); return d.scrollWidth - d.clientWidth")).longValue();
        assertThat(overflow).isLessThanOrEqualTo(0);
        b.screenshot("12-global-impact-420");
        b.visible("#impact-cancel").click();
    }

    @Test
    @Order(10)
    void focusIsVisibleAndTheControlsAreReachableByKeyboard() {
        b.login("admin", RunningServer.ADMIN_PASSWORD);
        b.page("volumes");
        // every select on the page has a label
        for (WebElement s : b.all("#page select")) {
            String id = s.getDomAttribute("id");
            assertThat(b.all("label[for='" + id + "']")).as("label for " + id).hasSize(1);
        }
        // tab from the filters reaches a select, whose focus ring is drawn
        b.visible("#filter-ps");
        b.js("document.getElementById('filter-ps').focus()");
        b.driver.switchTo().activeElement().sendKeys(Keys.TAB);
        WebElement focused = b.driver.switchTo().activeElement();
        assertThat(focused.getDomAttribute("id")).isEqualTo("filter-vm");
        String outline = (String) b.js("return getComputedStyle(document.activeElement).outlineStyle");
        assertThat(outline).isNotEqualTo("none");
    }

    @Test
    @Order(11)
    void theVolumeListIsPagedAndFilteredByTheServer() throws Exception {
        String paged = f.primaryStorage(admin, "paged", "LocalStorage", Storage.dir("ui-paged"));
        List<String> made = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) made.add(f.volume(admin, "paged-" + i, "qcow2", "none", paged, host));
        b.login("admin", RunningServer.ADMIN_PASSWORD);
        b.page("volumes");
        b.select("#filter-ps").selectByValue(paged);
        b.settled();
        b.select("#page-size").selectByValue("10");
        b.settled();
        // each page is the query API's page: the same volumes in the same order
        List<String> firstPage = apiPage(paged, 0);
        assertThat(visibleVolumes()).containsExactlyElementsOf(firstPage).hasSize(10);
        assertThat(b.text("#volume-count")).startsWith("Volumes 1–10 of 12 matching the filters");
        assertThat(b.visible("#page-prev").isEnabled()).isFalse();
        b.visible("#page-next").click();
        b.settled();
        assertThat(visibleVolumes()).containsExactlyElementsOf(apiPage(paged, 10)).hasSize(2);
        assertThat(b.text("#volume-count")).startsWith("Volumes 11–12 of 12");
        assertThat(b.visible("#page-next").isEnabled()).isFalse();
        assertThat((String) b.waitFor(d -> d.switchTo().activeElement().getDomAttribute("id")))
                .as("the focus stays on the pager (Next is disabled on the last page)").isEqualTo("page-prev");
        b.visible("#page-prev").click();
        b.settled();
        assertThat(visibleVolumes()).containsExactlyElementsOf(firstPage);
        assertThat(made).containsAll(firstPage);
        b.select("#filter-ps").selectByValue("");
        b.settled();
        b.select("#page-size").selectByValue("25");
        b.settled();
    }

    @Test
    @Order(12)
    void theAuditPageShowsWhoChangedWhatFromWhereFilteredByTheServer() throws Exception {
        // a change to audit: a per-volume override through the API, as admin
        Http.Response r = http.put("/v1/resource-configurations/kvm/vm.ioMode/" + scratch + "/actions", admin,
                "{\"updateResourceConfig\":{\"value\":\"threads\"}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        b.login("admin", RunningServer.ADMIN_PASSWORD);
        b.page("audit");
        JsonNode newest = http.get("/v1/audits?limit=1", admin).body().path("inventories").get(0);
        assertThat(b.all("#audit-table tbody tr").get(0).getDomAttribute("data-audit")).isEqualTo(newest.path("uuid").asText());
        b.select("#audit-action").selectByValue("UpdateResourceConfig");
        b.settled();
        List<WebElement> rows = b.all("#audit-table tbody tr");
        assertThat(rows).isNotEmpty();
        for (WebElement row : rows) {
            String id = row.getDomAttribute("data-audit");
            assertThat(b.text("[data-action='" + id + "']")).isEqualTo("UpdateResourceConfig");
        }
        String first = rows.get(0).getDomAttribute("data-audit");
        assertThat(b.text("[data-change='" + first + "']")).endsWith("→ threads");
        assertThat(b.text("[data-who='" + first + "']")).contains("admin").contains("from 127.0.0.1");
        long total = http.get("/v1/audits?q=action=UpdateResourceConfig&count=true", admin).body().path("total").asLong();
        assertThat(b.text("#audit-count")).contains("of " + total + ",");
        b.select("#audit-action").selectByValue("");
        b.settled();
    }

    private List<String> apiPage(String ps, int start) {
        List<String> out = new java.util.ArrayList<>();
        http.get("/v1/volumes?q=primaryStorageUuid=" + ps + "&limit=10&start=" + start + "&sort=%2BcreateDate", admin)
                .body().path("inventories").forEach(v -> out.add(v.path("uuid").asText()));
        return out;
    }

    // ---- helpers ----

    private List<String> visibleVolumes() {
        return b.all("#volume-table tbody tr").stream().map(e -> e.getDomAttribute("data-volume")).toList();
    }

    private String globalValue(String name) {
        return http.get("/v1/global-configurations/kvm/" + name, admin).body().path("inventory").path("value").asText();
    }

    private JsonNode overrideOf(String resource) {
        return http.get("/v1/resource-configurations/" + resource + "/kvm/" + IO, admin).body();
    }

    private JsonNode preview(String volume) {
        for (JsonNode p : http.get("/v1/io-mode/previews", admin).body().path("inventories")) {
            if (volume.equals(p.path("volumeUuid").asText())) return p;
        }
        throw new AssertionError("no preview for " + volume);
    }

    private Map<String, Long> effectiveCounts(List<String> volumes) {
        Map<String, Long> m = new HashMap<>();
        for (String v : volumes) {
            JsonNode p = preview(v);
            m.merge(p.path("refused").asBoolean() ? "refused" : p.path("effective").asText(), 1L, Long::sum);
        }
        return m;
    }

    /** The start of the API's sentence (the page may capitalise its first letter). */
    private static String start(String s) {
        return s.length() > 40 ? s.substring(0, 40) : s;
    }
}
