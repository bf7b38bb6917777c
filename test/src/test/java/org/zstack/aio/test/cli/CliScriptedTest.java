package org.zstack.aio.test.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scripted session of {@code bin/aio-cli} (the script, as an operator runs it) against a real server on MariaDB:
 * log in, query with conditions, update a global and a per-volume config, read the audit, an error, help,
 * completion, log out.
 */
class CliScriptedTest {

    static final Path CLI = Path.of(System.getProperty("user.dir")).getParent().resolve("bin/aio-cli");

    record Run(int exit, String out, String err) {
        JsonNode json() {
            try {
                return Http.JSON.readTree(out);
            } catch (java.io.IOException e) {
                throw new AssertionError("not JSON: " + out + " / " + err, e);
            }
        }
    }

    @Test
    void aScriptedSessionLogsInQueriesChangesConfigsReadsTheAuditAndLogsOut() throws Exception {
        Path home = Files.createTempDirectory("aio-cli-home");
        try (TestDatabase db = TestDatabase.mariadb(); RunningServer server = RunningServer.start(db)) {
            Fixture f = new Fixture(server);
            String admin = f.adminSession();
            String ps = f.primaryStorage(admin, "cli-local", "LocalStorage", Storage.dir("cli-local"));
            String host = f.localHost(admin);
            String volA = f.volume(admin, "cli-a", "qcow2", "full", ps, host);
            f.volume(admin, "cli-b", "qcow2", "none", ps, host);
            Map<String, String> env = Map.of("AIO_SERVER_URL", server.baseUrl(), "AIO_CLI_HOME", home.toString());

            Run login = cli(env, "LogInByAccount", "accountName=admin", "password=" + RunningServer.ADMIN_PASSWORD);
            assertThat(login.exit()).as(login.err()).isZero();
            Path session = home.resolve("session");
            assertThat(Files.readString(session).trim()).isEqualTo(login.json().path("inventory").path("uuid").asText());
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(session))).isEqualTo("rw-------");

            Run query = cli(env, "QueryVolume", "q=primaryStorageUuid=" + ps, "q=name=cli-a", "limit=10", "replyWithCount=true");
            assertThat(query.exit()).as(query.err()).isZero();
            assertThat(query.json().path("inventories")).hasSize(1);
            assertThat(query.json().path("inventories").get(0).path("uuid").asText()).isEqualTo(volA);
            assertThat(query.json().path("total").asInt()).isEqualTo(1);

            Run global = cli(env, "UpdateGlobalConfig", "category=kvm", "name=vm.ioMode", "value=auto");
            assertThat(global.exit()).as(global.err()).isZero();
            assertThat(f.http.get("/v1/global-configurations/kvm/vm.ioMode", admin).body().path("inventory").path("value").asText())
                    .isEqualTo("auto");
            Run perVolume = cli(env, "UpdateResourceConfig", "category=kvm", "name=vm.ioMode", "resourceUuid=" + volA, "value=threads");
            assertThat(perVolume.exit()).as(perVolume.err()).isZero();

            Run audit = cli(env, "QueryAudit", "q=action=UpdateResourceConfig", "q=resourceUuid=" + volA);
            assertThat(audit.exit()).as(audit.err()).isZero();
            JsonNode entry = audit.json().path("inventories").get(0);
            assertThat(entry.path("accountName").asText()).isEqualTo("admin");
            assertThat(entry.path("newValue").asText()).isEqualTo("threads");
            Run globalAudit = cli(env, "QueryAudit", "q=action=UpdateGlobalConfig", "limit=1");
            assertThat(globalAudit.json().path("inventories").get(0).path("newValue").asText()).isEqualTo("auto");

            Run bad = cli(env, "UpdateGlobalConfig", "category=kvm", "name=vm.ioMode", "value=bogus");
            assertThat(bad.exit()).isEqualTo(1);
            assertThat(bad.json().path("error").path("code").asText()).startsWith("AIO.");
            assertThat(bad.json().path("error").path("details").asText()).isNotBlank();
            Run unknownKey = cli(env, "QueryVolume", "nosuch=1");
            assertThat(unknownKey.exit()).isEqualTo(2);
            assertThat(unknownKey.err()).contains("has no parameter 'nosuch'");

            Run help = cli(env, "help");
            assertThat(help.exit()).isZero();
            assertThat(help.out()).contains("QueryVolume", "StartVmInstance", "QueryAudit", "LogInByAccount");
            Run helpStart = cli(env, "help", "StartVmInstance");
            assertThat(helpStart.out()).contains("uuid=<string> (required)").contains("PUT /v1/vm-instances/{uuid}/actions");
            Run completion = cli(env, "generate-completion");
            assertThat(completion.exit()).isZero();
            assertThat(completion.out()).contains("complete -F").contains("QueryVolume");

            Run logout = cli(env, "LogOut");
            assertThat(logout.exit()).as(logout.err()).isZero();
            assertThat(session).doesNotExist();
            assertThat(f.http.get("/v1/volumes", login.json().path("inventory").path("uuid").asText()).status())
                    .as("the session really ended").isEqualTo(401);
            Run after = cli(env, "QueryVolume");
            assertThat(after.exit()).isEqualTo(2);
            assertThat(after.err()).contains("sessionId");
        }
    }

    static Run cli(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", CLI.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("aio-cli " + String.join(" ", args) + " did not finish");
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }
}
