package org.zstack.aio.test.iomode;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.zstack.aio.agent.host.StoragePathProbe;
import org.zstack.sdk.GetHostIoFactsAction;
import org.zstack.sdk.HostIoFactsInventory;
import org.zstack.aio.test.support.Decisions;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.SimulatedAgent;
import org.zstack.aio.test.support.TestDatabase;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 32: the six filesystem and loop rows of conf/aio/io-mode-rules.yaml fire on this server THROUGH the agent's
 * own gathering. The host's agent answers /host/connect with what the real agent's {@link StoragePathProbe} reads from
 * a recorded mount table (cifs, btrfs, zfs, ext4 on a loop device, ext4 on a disk; no such mounts on this machine);
 * the server stores it, hands it to the core per primary storage (HostIoFacts.storage), and the decision of
 * GET /v1/volumes/{uuid}/io-mode names the row. The same volume on the ext4 disk gets the mode: the row is the
 * storage path's doing. Real server over HTTP on H2; the agent simulated for everything but those facts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KnownBadStorageRulesTest {

    static final String MOUNTS = """
            /dev/sda2 / ext4 rw 0 0
            //nas/vms /srv/aio/cifs cifs rw 0 0
            /dev/sdb1 /srv/aio/btrfs btrfs rw 0 0
            tank/vms /srv/aio/zfs zfs rw 0 0
            /dev/loop5 /srv/aio/loop ext4 rw 0 0
            /dev/sdc1 /srv/aio/disk ext4 rw 0 0
            """;

    TestDatabase db;
    RunningServer server;
    SimulatedAgent agent;
    Fixture f;
    String admin;
    String host;

    @BeforeAll
    void boot(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("mounts"), MOUNTS);
        Files.createDirectories(tmp.resolve("sys-class-block"));
        StoragePathProbe gathering = new StoragePathProbe(tmp.resolve("mounts"), tmp.resolve("sys-class-block"));
        db = TestDatabase.h2();
        server = RunningServer.start(db);
        agent = new SimulatedAgent();
        agent.storagePaths = p -> gathering.probe(Path.of(p));
        agent.qemu = "6.2.0"; // the QEMU 5.0 to 7.0 row; above the 6.1 and 5.13 rows' bounds
        f = new Fixture(server);
        admin = f.adminSession();
        List<String> storages = new ArrayList<>();
        for (String fs : List.of("cifs", "btrfs", "zfs", "loop", "disk")) {
            storages.add(f.primaryStorage(admin, fs, "NFS", "/srv/aio/" + fs));
        }
        host = f.host(admin, agent.port(), agent.enrollmentToken());
    }

    @AfterAll
    void shutdown() throws Exception {
        agent.close();
        server.close();
        db.close();
    }

    @ParameterizedTest(name = "{0}: {1} with cache {2} on {3}")
    @CsvSource({
            "known-bad:cifs-io_uring-kernel-5.15,   io_uring, none,      cifs",
            "known-bad:btrfs-native-odirect,        native,   none,      btrfs",
            "known-bad:btrfs-io_uring-odirect,      io_uring, directsync, btrfs",
            "known-bad:qemu-5.0-7.0-io_uring-btrfs, io_uring, writeback, btrfs",
            "known-bad:zfs-io_uring,                io_uring, none,      zfs",
            "known-bad:loop-io_uring,               io_uring, none,      loop",
    })
    void theRowFiresFromTheAgentsGatheringAndNotOnAPlainDisk(String row, String mode, String cache, String fs) {
        JsonNode bad = decide(mode, cache, fs);
        assertThat(Decisions.failedChecks(bad, mode)).as("failed %s checks of %s", mode, bad).contains(row);
        assertThat(bad.path("effective").asText()).as(bad.path("reason").asText()).isNotEqualTo(mode);

        JsonNode good = decide(mode, cache, "disk");
        assertThat(Decisions.failedChecks(good, mode)).as("on the ext4 disk").doesNotContain(row).noneMatch(c -> c.startsWith("known-bad:"));
        assertThat(good.path("effective").asText()).as(good.path("reason").asText()).isEqualTo(mode);
    }

    /** The previews over many volumes (the UI's table) read the same host facts: a VM's volume on btrfs. */
    @org.junit.jupiter.api.Test
    void thePreviewsOfAVmsVolumeNameTheRowToo() {
        String ps = f.http.get("/v1/primary-storage?q=name=btrfs", admin).body().path("inventories").get(0).path("uuid").asText();
        String vol = f.volume(admin, "vm-disk-on-btrfs", "qcow2", "full", ps, host);
        f.volumeConfig(admin, vol, "vm.ioMode", "io_uring");
        f.volumeConfig(admin, vol, "vm.cacheMode", "none");
        f.vm(admin, "on-btrfs", host, List.of(vol));
        Http.Response r = f.http.get("/v1/io-mode/previews?volumeUuid=" + vol, admin);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        JsonNode d = r.body().path("inventories").get(0);
        assertThat(d.path("hostUuid").asText()).isEqualTo(host);
        assertThat(Decisions.failedChecks(d, "io_uring")).contains("known-bad:btrfs-io_uring-odirect");
    }

    /** The host's facts as the one SDK inventory: each storage path under its primary storage, with what was gathered. */
    @org.junit.jupiter.api.Test
    void theHostsIoFactsShowEachStoragePathAsGathered() {
        Http.Response r = f.http.get("/v1/hosts/" + host + "/io-facts", admin);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        JsonNode inv = r.body().path("inventory");
        assertThat(inv.path("hostUuid").asText()).isEqualTo(host);
        assertThat(inv.path("qemu").asText()).isEqualTo("6.2.0");
        List<String> seen = new ArrayList<>();
        inv.path("storages").forEach(s -> seen.add(s.path("path").asText() + " " + s.path("filesystem").asText() + " "
                + s.path("loopBacked").asText()));
        assertThat(seen).containsExactlyInAnyOrder("/srv/aio/cifs cifs false", "/srv/aio/btrfs btrfs false",
                "/srv/aio/zfs zfs false", "/srv/aio/loop ext4 true", "/srv/aio/disk ext4 false");
        assertThat(inv.path("storages")).allSatisfy(s -> assertThat(s.path("primaryStorageUuid").asText()).hasSize(32));

        // the same through the SDK's one inventory class (shared with the ZStack module's SDK)
        GetHostIoFactsAction a = new GetHostIoFactsAction();
        a.uuid = host;
        HostIoFactsInventory sdk = a.call(f.as(admin)).inventory;
        assertThat(sdk.hostUuid).isEqualTo(host);
        assertThat(sdk.kernel).isEqualTo("6.8.0");
        assertThat(sdk.agent).isEqualTo("plugin-aio's agent");
        assertThat(sdk.probedAt).isNotBlank();
        assertThat(sdk.storages).hasSize(5).anySatisfy(st -> {
            assertThat(st.path).isEqualTo("/srv/aio/loop");
            assertThat(st.filesystem).isEqualTo("ext4");
            assertThat(st.loopBacked).isTrue();
            assertThat(st.directIo).as("no such directory on this machine").isFalse();
            assertThat(st.directIoReason).contains("not a directory");
        });
    }

    /** A full qcow2 volume on the storage named {@code fs}, asking for {@code mode} with {@code cache}, decided on the host. */
    private JsonNode decide(String mode, String cache, String fs) {
        String ps = f.http.get("/v1/primary-storage?q=name=" + fs, admin).body().path("inventories").get(0).path("uuid").asText();
        String vol = f.volume(admin, fs + "-" + mode + "-" + cache, "qcow2", "full", ps, host);
        f.volumeConfig(admin, vol, "vm.ioMode", mode);
        f.volumeConfig(admin, vol, "vm.cacheMode", cache);
        Http.Response r = f.http.get("/v1/volumes/" + vol + "/io-mode?hostUuid=" + host, admin);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }
}
