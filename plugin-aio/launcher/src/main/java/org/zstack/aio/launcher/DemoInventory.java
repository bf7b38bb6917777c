package org.zstack.aio.launcher;

import com.fasterxml.jackson.databind.node.ArrayNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.zstack.aio.db.DatabaseSettings;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.server.account.AccountRepository;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.Readiness;
import org.zstack.aio.server.config.ConfigService;
import org.zstack.aio.server.config.GlobalConfigDefinition;
import org.zstack.aio.server.host.HostService;
import org.zstack.aio.server.inventory.HostRepository;
import org.zstack.aio.server.inventory.PrimaryStorageService;
import org.zstack.aio.server.iomode.IoModeConfigs;
import org.zstack.aio.server.vm.VmLifecycle;
import org.zstack.aio.server.vm.VmService;
import org.zstack.aio.server.volume.VolumeService;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;

/**
 * On an empty embedded database, builds a small inventory through the same services the API uses, so the UI shows
 * real decisions at once: the local host (in-process agent), LocalStorage, NFS and SharedBlock primary storage
 * (directories under the data dir), volumes with different preallocation and cache modes, and two VMs, one started.
 */
@Component
@Order(30) // after the boot reconciliation (20); /health says 200 only once this is done too (Readiness)
class DemoInventory implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(DemoInventory.class);
    private static final long SIZE = 64L << 20;

    private final DatabaseSettings db;
    private final ObjectProvider<EmbeddedAgent> agent;
    private final boolean enabled;
    private final Path dataDir;
    private final AccountRepository accounts;
    private final HostRepository hostRows;
    private final HostService hosts;
    private final PrimaryStorageService storages;
    private final VolumeService volumes;
    private final VmService vms;
    private final VmLifecycle lifecycle;
    private final ConfigService configs;
    private final GlobalConfigDefinition ioMode;
    private final GlobalConfigDefinition cacheMode;
    private final Readiness readiness;

    DemoInventory(DatabaseSettings db, ObjectProvider<EmbeddedAgent> agent, @Value("${aio.demo:true}") boolean enabled,
                  @Value("${AIO_DATA_DIR:./data}") String dataDir, AccountRepository accounts, HostRepository hostRows,
                  HostService hosts, PrimaryStorageService storages, VolumeService volumes, VmService vms,
                  VmLifecycle lifecycle, ConfigService configs, IoModeConfigs ioModeConfigs,
                  Readiness readiness) {
        this.db = db;
        this.agent = agent;
        this.enabled = enabled;
        this.dataDir = Path.of(dataDir).toAbsolutePath().normalize();
        this.accounts = accounts;
        this.hostRows = hostRows;
        this.hosts = hosts;
        this.storages = storages;
        this.volumes = volumes;
        this.vms = vms;
        this.lifecycle = lifecycle;
        this.configs = configs;
        this.ioMode = ioModeConfigs.ioMode();
        this.cacheMode = ioModeConfigs.cacheMode();
        this.readiness = readiness;
    }

    @Override
    public void run(ApplicationArguments args) throws Exception {
        EmbeddedAgent local = agent.getIfAvailable();
        if (!enabled || !db.embedded() || local == null || hostRows.count() > 0) return;
        readiness.waitingFor("the demo inventory");
        var admin = accounts.findByName(AccountService.ADMIN).orElseThrow();
        Caller caller = new Caller(admin.getUuid(), admin.getName(), true, "demo");

        var localPs = storages.add(caller, "local-ssd", "LocalStorage", dir("local"));
        var nfs = storages.add(caller, "nfs-shared", "NFS", dir("nfs"));
        var block = storages.add(caller, "sharedblock-san", "SharedBlock", dir("sharedblock"));
        var host = hosts.add(caller, "local-kvm", "127.0.0.1", local.port(), local.enrollmentToken());
        // the previous release pinned SharedBlock to native (see db-upgrade); the demo shows the same, and auto on local
        configs.updateResource(caller, ioMode.category(), ioMode.name(), block.uuid(), instance.textNode(IoMode.NATIVE.wire()));
        configs.updateResource(caller, ioMode.category(), ioMode.name(), localPs.uuid(), instance.textNode(RequestedIoMode.AUTO.wire()));

        var full = volume(caller, "db-data (qcow2, full)", "qcow2", "full", localPs.uuid(), host.uuid());
        var sparse = volume(caller, "scratch (qcow2, sparse)", "qcow2", "none", localPs.uuid(), host.uuid());
        var lv = volume(caller, "san-lun (raw, SharedBlock)", "raw", "full", block.uuid(), host.uuid());
        var falloc = volume(caller, "logs (raw, falloc)", "raw", "falloc", nfs.uuid(), host.uuid());
        var cached = volume(caller, "cache-heavy (qcow2, writeback)", "qcow2", "full", nfs.uuid(), host.uuid());
        configs.updateResource(caller, cacheMode.category(), cacheMode.name(), cached, instance.textNode("writeback"));
        configs.updateResource(caller, ioMode.category(), ioMode.name(), falloc, instance.textNode(IoMode.IO_URING.wire()));

        var web = vms.create(caller, "vm-web", host.uuid(), 64L << 20, 1, uuids(full, sparse, lv));
        vms.create(caller, "vm-batch", host.uuid(), 64L << 20, 1, uuids(falloc, cached));
        try {
            lifecycle.start(caller, web.uuid());
        } catch (RuntimeException e) {
            log.warn("demo: vm-web did not start ({}); its decisions are still shown by GET /v1/volumes/{{uuid}}/io-mode",
                    e.getMessage());
        }
        log.info("demo inventory created: 1 host, 3 primary storages, 5 volumes, 2 VMs");
    }

    private String volume(Caller c, String name, String format, String prealloc, String ps, String host) {
        return volumes.create(c, new VolumeService.CreateVolume(name, SIZE, format, prealloc, ps, host)).uuid();
    }

    private String dir(String name) throws IOException {
        Path p = dataDir.resolve("storage").resolve(name);
        Files.createDirectories(p);
        return p.toString();
    }

    private static ArrayNode uuids(String... u) {
        var a = instance.arrayNode();
        List.of(u).forEach(a::add);
        return a;
    }
}
