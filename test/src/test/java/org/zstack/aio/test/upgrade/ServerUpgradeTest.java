package org.zstack.aio.test.upgrade;

import org.junit.jupiter.api.Test;
import org.zstack.aio.db.DatabaseSettings;
import org.zstack.aio.db.SchemaUpgrade;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.QemuProcess;
import org.zstack.aio.test.support.RealComponents;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The server's own boot-time upgrade (docs/contract.md, "Database and upgrade"), on real MariaDB. */
class ServerUpgradeTest {

    @Test
    void theServerRefusesToBootOnAnEditedMigrationOrANewerDatabase() throws Exception {
        try (TestDatabase db = TestDatabase.mariadb()) {
            RunningServer.start(db).close();
            try (Connection c = db.connect()) {
                c.createStatement().executeUpdate("UPDATE flyway_schema_history SET checksum = checksum + 1 WHERE version = '4.9.0'");
            }
            assertThatThrownBy(() -> RunningServer.start(db)).hasStackTraceContaining("checksum mismatch")
                    .hasStackTraceContaining("nothing was changed");
            try (Connection c = db.connect()) {
                c.createStatement().executeUpdate("UPDATE flyway_schema_history SET checksum = checksum - 1 WHERE version = '4.9.0'");
                c.createStatement().executeUpdate("INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
                        + " checksum, installed_by, execution_time, success) VALUES (99, '5.0.0', 'from the future', 'SQL',"
                        + " 'V5.0.0__future.sql', 1, 'x', 1, 1)");
            }
            assertThatThrownBy(() -> RunningServer.start(db)).hasStackTraceContaining("5.0.0");
        }
    }

    @Test
    void anUpgradedInstallationStartsSharedBlockVolumesNativeAndTheRestThreads() throws Exception {
        RealComponents.require(QemuProcess.libvirtAnswers(), "libvirtd at qemu:///system", "run bin/lib/setup-libvirt.sh as root");
        try (TestDatabase db = TestDatabase.mariadb()) {
            // the previous release's database, with its inventory and images made as it made them
            SchemaUpgrade.configure(new DatabaseSettings(db.url(), db.user(), db.password()),
                    List.of(SchemaUpgrade.DEFAULT_LOCATION), "4.8.0").load().migrate();
            String localDir = Storage.dir("upg-local");
            String blockDir = Storage.dir("upg-block");
            String localImg = Path.of(localDir, "legacy-file.qcow2").toString();
            String blockImg = Path.of(blockDir, "legacy-lun.raw").toString();
            qemuImg("create", "-q", "-f", "qcow2", "-o", "preallocation=full", localImg, "64M");
            qemuImg("create", "-q", "-f", "raw", "-o", "preallocation=full", blockImg, "64M");
            String vm = "0000000000000000000000000000a001";
            try (Connection c = db.connect()) {
                exec(c, "INSERT INTO AccountVO (uuid, name, password, type) VALUES ('0000000000000000000000000000acc1', 'legacy',"
                        + " '$2a$10$abcdefghijklmnopqrstuuJ6tqkKjZ1bQy2zCk2i6P6LtvJ6vC1e', 'Normal')");
                exec(c, "INSERT INTO PrimaryStorageVO (uuid, name, type, url, status) VALUES"
                        + " ('00000000000000000000000000005001', 'local', 'LocalStorage', '" + localDir + "', 'Connected'),"
                        + " ('00000000000000000000000000005002', 'san', 'SharedBlock', '" + blockDir + "', 'Connected')");
                exec(c, "INSERT INTO HostVO (uuid, name, managementIp, agentPort, status) VALUES"
                        + " ('0000000000000000000000000000b001', 'kvm-1', '127.0.0.1', 1, 'Connected')");
                exec(c, "INSERT INTO VmInstanceVO (uuid, name, hostUuid, state, memorySize, cpuNum, accountUuid) VALUES"
                        + " ('" + vm + "', 'legacy-vm', '0000000000000000000000000000b001', 'Stopped', 67108864, 1, '0000000000000000000000000000acc1')");
                PreparedStatement v = c.prepareStatement("INSERT INTO VolumeVO (uuid, name, primaryStorageUuid, vmInstanceUuid, deviceId,"
                        + " installPath, format, size, actualSize, accountUuid) VALUES (?, ?, ?, ?, ?, ?, ?, 67108864, 67108864, '0000000000000000000000000000acc1')");
                volume(v, "0000000000000000000000000000f001", "file", "00000000000000000000000000005001", vm, 0, localImg, "qcow2");
                volume(v, "0000000000000000000000000000f002", "lun", "00000000000000000000000000005002", vm, 1, blockImg, "raw");
            }
            try (RunningServer server = RunningServer.start(db, Map.of("AIO_LIBVIRT_URI", "qemu:///system"))) {
                try (Connection c = db.connect()) {
                    exec(c, "UPDATE HostVO SET agentPort = " + server.agentPort());
                }
                Fixture f = new Fixture(server);
                String admin = f.adminSession();
                Http.Response pin = f.http.get("/v1/resource-configurations/00000000000000000000000000005002/kvm/vm.ioMode", admin);
                assertThat(pin.body().path("value").asText()).as("SharedBlock pinned by the upgrade").isEqualTo("native");
                assertThat(f.http.get("/v1/resource-configurations/00000000000000000000000000005001/kvm/vm.ioMode", admin)
                        .body().path("value").asText()).isEqualTo("threads");

                // a host from before enrollment is not called until it is enrolled: 409 with what to do
                Http.Response r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
                assertThat(r.status()).as(r.raw()).isEqualTo(409);
                assertThat(r.body().path("error").path("details").asText()).contains("agentEnrollment");
                assertThat(QemuProcess.defined(vm)).isFalse();
                Http.Response re = f.http.put("/v1/hosts/0000000000000000000000000000b001/actions", admin,
                        "{\"reconnectHost\":{\"agentEnrollment\":\"" + server.agentEnrollment() + "\"}}");
                assertThat(re.status()).as(re.raw()).isEqualTo(200);

                r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
                assertThat(r.status()).as(r.raw()).isEqualTo(200);
                try {
                    QemuProcess q = QemuProcess.of(vm);
                    assertThat(q.aio(blockImg)).isEqualTo("native");
                    assertThat(q.aio(localImg)).isEqualTo("threads");
                } finally {
                    f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"stopVmInstance\":{}}");
                }
            }
        }
    }

    private static void volume(PreparedStatement v, String uuid, String name, String ps, String vm, int dev, String path,
                               String format) throws Exception {
        v.setString(1, uuid);
        v.setString(2, name);
        v.setString(3, ps);
        v.setString(4, vm);
        v.setInt(5, dev);
        v.setString(6, path);
        v.setString(7, format);
        v.executeUpdate();
    }

    private static void exec(Connection c, String sql) throws Exception {
        c.createStatement().executeUpdate(sql);
    }

    private static void qemuImg(String... args) throws Exception {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "qemu-img";
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        assertThat(p.waitFor()).isZero();
    }
}
