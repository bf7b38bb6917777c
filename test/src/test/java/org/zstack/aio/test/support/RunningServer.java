package org.zstack.aio.test.support;

import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.zstack.aio.launcher.AioLauncher;
import org.zstack.aio.launcher.EmbeddedAgent;

import java.util.LinkedHashMap;
import java.util.Map;
import org.zstack.aio.server.account.AccountRepository;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.inventory.VmInstanceRepository;
import org.zstack.aio.server.inventory.VmInstanceVO;
import org.zstack.aio.server.vm.VmLifecycle;

/**
 * The real management server booted in this JVM on a free port, against a {@link TestDatabase}, with its
 * in-process agent (real libvirt when qemu:///system answers). No demo inventory: tests build their own.
 */
public final class RunningServer implements AutoCloseable {

    public static final String ADMIN_PASSWORD = "admin-password-1";

    private final ConfigurableApplicationContext ctx;
    private final TestDatabase db;

    private RunningServer(ConfigurableApplicationContext ctx, TestDatabase db) {
        this.ctx = ctx;
        this.db = db;
    }

    public static RunningServer start(TestDatabase db) {
        return start(db, Map.of());
    }

    public static RunningServer start(TestDatabase db, Map<String, String> extra) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("server.port", "0");
        p.put("AIO_DB_URL", db.url());
        p.put("AIO_DB_USER", db.user());
        p.put("AIO_DB_PASSWORD", db.password());
        p.put("AIO_DATA_DIR", db.dataDir().toString());
        p.put("AIO_ADMIN_PASSWORD", ADMIN_PASSWORD);
        p.put("AIO_AGENT_PORT", "0");
        p.put("aio.embedded-agent", "true");
        p.put("aio.demo", "false");
        p.put("spring.jpa.properties.hibernate.generate_statistics", "true");
        p.put("logging.level.org.hibernate.engine.internal.StatisticalLoggingSessionEventListener", "warn");
        p.putAll(extra);
        // command-line arguments outrank application.yml (builder "properties" would only be defaults)
        String[] args = p.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        ConfigurableApplicationContext ctx = AioLauncher.run(args);
        return new RunningServer(ctx, db);
    }

    public int port() {
        return ((ServletWebServerApplicationContext) ctx).getWebServer().getPort();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    public int agentPort() {
        return ctx.getBean(EmbeddedAgent.class).port();
    }

    /** The in-process agent's enrollment token, as an operator would copy it from its data dir. */
    public String agentEnrollment() {
        return ctx.getBean(EmbeddedAgent.class).enrollmentToken();
    }

    public <T> T bean(Class<T> type) {
        return ctx.getBean(type);
    }

    public TestDatabase db() {
        return db;
    }

    /** Shuts the server down and leaves its VMs as they are (another node on the same database owns them). */
    public void closeLeavingVms() {
        ctx.close();
    }

    /** Stops every VM this server still runs (so no test leaves a QEMU behind), then shuts the server down. */
    @Override
    public void close() {
        try {
            var admin = bean(AccountRepository.class).findByName("admin").orElse(null);
            if (admin != null) {
                var caller = new Caller(admin.getUuid(), admin.getName(), true, "test-harness");
                for (var vm : bean(VmInstanceRepository.class).findAll()) {
                    if (vm.getState() != VmInstanceVO.State.Running) continue;
                    try {
                        bean(VmLifecycle.class).stop(caller, vm.getUuid());
                    } catch (RuntimeException e) {
                        System.err.println("harness: could not stop VM " + vm.getUuid() + ": " + e.getMessage());
                    }
                }
            }
        } finally {
            ctx.close();
        }
    }
}
