package org.zstack.aio.test.e2e;

import org.junit.jupiter.api.Test;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.QemuProcess;
import org.zstack.aio.test.support.RealComponents;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plugin off = the previous platform: file volumes get no io attribute, SharedBlock gets io='native' cache='none'.
 * The same inventory with the plugin on: file volumes threads (the global default), SharedBlock still native (the
 * block kind's default in conf/aio/io-mode-rules.yaml, as before the plugin), and an admin's value on the storage wins.
 */
class PluginOffE2ETest {

    @Test
    void withThePluginOffVmsStartAsBeforeAndWithItOnTheyFollowTheConfigs() throws Exception {
        RealComponents.require(QemuProcess.libvirtAnswers(), "libvirtd at qemu:///system", "run bin/lib/setup-libvirt.sh as root");
        try (TestDatabase db = TestDatabase.h2()) {
            String vm;
            String file;
            String block;
            String blockPs;
            try (RunningServer off = RunningServer.start(db, Map.of("aio.plugin.enabled", "false", "AIO_LIBVIRT_URI", "qemu:///system"))) {
                Fixture f = new Fixture(off);
                String admin = f.adminSession();
                String local = f.primaryStorage(admin, "local", "LocalStorage", Storage.dir("off-local"));
                blockPs = f.primaryStorage(admin, "san", "SharedBlock", Storage.dir("off-block"));
                String host = f.localHost(admin);
                file = f.volume(admin, "file", "qcow2", "full", local, host);
                block = f.volume(admin, "lun", "raw", "full", blockPs, host);
                vm = f.vm(admin, "legacy", host, List.of(file, block));
                Http.Response r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
                assertThat(r.status()).as(r.raw()).isEqualTo(200);
                QemuProcess q = QemuProcess.of(vm);
                assertThat(q.hasAioAttribute(path(f, admin, file))).as("file volume has an io attribute").isFalse();
                assertThat(q.aio(path(f, admin, block))).isEqualTo("native");
                assertThat(q.cacheDirect(path(f, admin, block))).isTrue();
                assertThat(r.body().path("ioModeDecisions")).as("plugin off records no decision").isEmpty();
                stop(f, admin, vm);
            }
            try (RunningServer on = RunningServer.start(db, Map.of("AIO_LIBVIRT_URI", "qemu:///system"))) {
                Fixture f = new Fixture(on);
                String admin = f.adminSession();
                // the agent moved to a new port with the new server: point the host at it
                try (var c = db.connect()) {
                    c.createStatement().executeUpdate("UPDATE HostVO SET agentPort = " + on.agentPort());
                }
                Http.Response r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
                assertThat(r.status()).as(r.raw()).isEqualTo(200);
                QemuProcess q = QemuProcess.of(vm);
                assertThat(q.aio(path(f, admin, file))).isEqualTo("threads");
                assertThat(q.hasAioAttribute(path(f, admin, file))).as("plugin on sets io explicitly").isTrue();
                assertThat(q.aio(path(f, admin, block))).as("fresh install, no config: block storage keeps native").isEqualTo("native");
                stop(f, admin, vm);

                r = f.http.put("/v1/resource-configurations/kvm/vm.ioMode/" + blockPs + "/actions", admin,
                        "{\"updateResourceConfig\":{\"value\":\"threads\"}}");
                assertThat(r.status()).as(r.raw()).isEqualTo(200);
                r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
                assertThat(r.status()).as(r.raw()).isEqualTo(200);
                assertThat(QemuProcess.of(vm).aio(path(f, admin, block))).as("the admin's threads on the storage").isEqualTo("threads");
                assertThat(QemuProcess.of(vm).aio(path(f, admin, file))).isEqualTo("threads");
                stop(f, admin, vm);
            }
        }
    }

    private static String path(Fixture f, String admin, String volume) {
        return f.http.get("/v1/volumes/" + volume, admin).body().path("inventory").path("installPath").asText();
    }

    private static void stop(Fixture f, String admin, String vm) {
        Http.Response r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"stopVmInstance\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
    }
}
