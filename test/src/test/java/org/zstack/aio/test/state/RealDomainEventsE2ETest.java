package org.zstack.aio.test.state;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.QemuProcess;
import org.zstack.aio.test.support.RealComponents;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.ServerProcess;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;
import org.zstack.sdk.GetVmInstanceAction;
import org.zstack.sdk.GetVolumeAction;
import org.zstack.sdk.VolumeRunningInventory;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real MariaDB, real agent, real QEMU: a volume's {@code running} is what the live domain has (and what QEMU runs);
 * {@code virsh destroy} is seen through the agent's pushed libvirt lifecycle event, long before the next ping round
 * (the interval is set to 60 s here), and the VM shows Stopped with the reason; it starts again with one QEMU.
 */
class RealDomainEventsE2ETest {

    @Test
    void aDomainDestroyedOutsideIsStoppedWithinSecondsThroughTheAgentsEventAndTheLiveIoIsShown() throws Exception {
        RealComponents.require(QemuProcess.libvirtAnswers(), "libvirtd at qemu:///system", "run bin/lib/setup-libvirt.sh as root");
        try (TestDatabase db = TestDatabase.mariadb();
             RunningServer server = RunningServer.start(db, Map.of("AIO_LIBVIRT_URI", "qemu:///system"))) {
            Fixture f = new Fixture(server);
            String admin = f.adminSession();
            String ps = f.primaryStorage(admin, "local", "LocalStorage", Storage.dir("events-local"));
            String host = f.host(admin, server.agentPort(), server.agentEnrollment());
            String vol = f.volume(admin, "root", "qcow2", "full", ps, host, 64L << 20);
            String vm = f.vm(admin, "events", host, List.of(vol));
            Thread.sleep(2500); // one tracker round: the node subscribes to the agent's events
            Http.Response r = f.http.put("/v1/global-configurations/host/ping.interval/actions", admin,
                    "{\"updateGlobalConfig\":{\"value\":\"60\"}}");
            assertThat(r.status()).as(r.raw()).isEqualTo(200);

            r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            long w0 = System.nanoTime(); // the tracker reads the live disks right after the start
            while (f.http.get("/v1/volumes/" + vol, admin).body().path("inventory").path("running").isNull()
                   && System.nanoTime() - w0 < 5_000_000_000L) {
                Thread.sleep(100);
            }
            JsonNode volume = f.http.get("/v1/volumes/" + vol, admin).body().path("inventory");
            String installPath = volume.path("installPath").asText();
            JsonNode running = volume.path("running");
            assertThat(running.path("hostUuid").asText()).isEqualTo(host);
            assertThat(running.path("io").isNull() ? "threads" : running.path("io").asText())
                    .as("running.io is what QEMU runs").isEqualTo(QemuProcess.of(vm).aio(installPath));
            assertThat(ServerProcess.qemuCount(vm)).isEqualTo(1);
            GetVolumeAction getVolume = new GetVolumeAction(); // the SDK's typed inventory carries it too
            getVolume.uuid = vol;
            VolumeRunningInventory typed = getVolume.call(f.as(admin)).inventory.running;
            assertThat(typed.hostUuid).isEqualTo(host);
            assertThat(typed.io).isEqualTo(running.path("io").isNull() ? null : running.path("io").asText());
            assertThat(typed.cache).isEqualTo(running.path("cache").asText());
            assertThat(typed.since).endsWith("Z");

            Process destroy = new ProcessBuilder("virsh", "-c", "qemu:///system", "destroy", vm).redirectErrorStream(true).start();
            assertThat(destroy.waitFor()).as(new String(destroy.getInputStream().readAllBytes())).isZero();
            long t0 = System.nanoTime();
            String state;
            do {
                Thread.sleep(100);
                state = f.http.get("/v1/vm-instances/" + vm, admin).body().path("inventory").path("state").asText();
            } while (!"Stopped".equals(state) && System.nanoTime() - t0 < 15_000_000_000L);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("state: virsh destroy -> Stopped after %d ms (ping interval 60 s)%n", ms);
            assertThat(state).isEqualTo("Stopped");
            assertThat(ms).as("seen through the pushed event, not the 60 s ping round").isLessThan(8000);
            GetVmInstanceAction getVm = new GetVmInstanceAction();
            getVm.uuid = vm;
            assertThat(getVm.call(f.as(admin)).inventory.stateReason).contains("outside the platform");
            long w1 = System.nanoTime();
            while (!f.http.get("/v1/volumes/" + vol, admin).body().path("inventory").path("running").isNull()
                   && System.nanoTime() - w1 < 5_000_000_000L) {
                Thread.sleep(100);
            }
            assertThat(f.http.get("/v1/volumes/" + vol, admin).body().path("inventory").path("running").isNull()).isTrue();

            r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            assertThat(ServerProcess.qemuCount(vm)).isEqualTo(1);
            r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"stopVmInstance\":{}}");
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            assertThat(ServerProcess.qemuCount(vm)).isZero();
        }
    }
}
