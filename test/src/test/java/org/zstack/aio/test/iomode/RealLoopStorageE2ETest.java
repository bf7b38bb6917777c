package org.zstack.aio.test.iomode;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.agent.process.ProcessResult;
import org.zstack.aio.agent.process.ProcessRunner;
import org.zstack.aio.test.support.Decisions;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RealComponents;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.TestDatabase;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The filesystem and loop rows with nothing simulated: a btrfs this test makes on a real loop device is a primary
 * storage of the server, whose real in-process agent probes it at /host/connect (this host's /proc/mounts); the
 * decisions the API answers for a volume there name btrfs-io_uring-odirect, loop-io_uring and btrfs-native-odirect.
 * Needs root and mkfs.btrfs (bin/lib/setup-libvirt.sh); skipped without them, failed under CI=true.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealLoopStorageE2ETest {

    private final ProcessRunner runner = new ProcessRunner(Duration.ofSeconds(60));
    private final Deque<List<String>> undo = new ArrayDeque<>();
    TestDatabase db;
    RunningServer server;
    Fixture f;
    String admin;
    String host;
    String storage;
    Path mnt;

    @BeforeAll
    void boot() throws Exception {
        RealComponents.require("root".equals(System.getProperty("user.name"))
                && runner.run(List.of("sh", "-c", "command -v mkfs.btrfs && losetup -f")).ok(),
                "root with mkfs.btrfs and a free loop device", "run bin/lib/setup-libvirt.sh as root (installs btrfs-progs)");
        Path image = Files.createTempFile(Path.of("target").toAbsolutePath(), "btrfs-", ".img");
        undo.push(List.of("rm", "-f", image.toString()));
        run("truncate", "-s", "1G", image.toString()); // sparse: the agent keeps headroom free before it preallocates
        String loop = run("losetup", "-f", "--show", image.toString()).strip();
        undo.push(List.of("losetup", "-d", loop));
        run("mkfs.btrfs", "-q", loop);
        mnt = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "btrfs-mnt-").toRealPath();
        undo.push(List.of("rmdir", mnt.toString()));
        run("mount", loop, mnt.toString());
        undo.push(List.of("umount", mnt.toString()));

        db = TestDatabase.h2();
        server = RunningServer.start(db);
        f = new Fixture(server);
        admin = f.adminSession();
        storage = f.primaryStorage(admin, "btrfs-on-loop", "LocalStorage", mnt.toString());
        host = f.localHost(admin);
    }

    @AfterAll
    void shutdown() throws Exception {
        try {
            if (server != null) server.close();
            if (db != null) db.close();
        } finally {
            while (!undo.isEmpty()) runner.run(undo.pop());
        }
    }

    @Test
    void theAgentsProbeOfARealBtrfsOnALoopDeviceDecidesTheVolumesThere() {
        JsonNode facts = f.http.get("/v1/hosts/" + host + "/io-facts", admin).body().path("inventory");
        JsonNode path = null;
        for (JsonNode s : facts.path("storages")) if (storage.equals(s.path("primaryStorageUuid").asText())) path = s;
        assertThat(path).as("%s", facts).isNotNull();
        assertThat(path.path("filesystem").asText()).isEqualTo("btrfs");
        assertThat(path.path("loopBacked").asBoolean()).isTrue();

        String vol = f.volume(admin, "on-btrfs", "qcow2", "full", storage, host);
        f.volumeConfig(admin, vol, "vm.cacheMode", "none");
        f.volumeConfig(admin, vol, "vm.ioMode", "io_uring");
        assertThat(Decisions.failedChecks(decide(vol), "io_uring"))
                .contains("known-bad:btrfs-io_uring-odirect", "known-bad:loop-io_uring");
        f.volumeConfig(admin, vol, "vm.ioMode", "native");
        assertThat(Decisions.failedChecks(decide(vol), "native")).contains("known-bad:btrfs-native-odirect");
        // threads has no such row: what the decision gives the volume there
        f.volumeConfig(admin, vol, "vm.ioMode", "threads");
        assertThat(decide(vol).path("effective").asText()).isEqualTo("threads");
    }

    private JsonNode decide(String vol) {
        Http.Response r = f.http.get("/v1/volumes/" + vol + "/io-mode?hostUuid=" + host, admin);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }



    private String run(String... cmd) {
        ProcessResult r = runner.run(List.of(cmd));
        assertThat(r.ok()).as(String.join(" ", cmd) + ": " + r.errorText()).isTrue();
        return r.stdout();
    }
}
