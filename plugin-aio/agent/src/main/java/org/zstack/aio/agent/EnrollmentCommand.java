package org.zstack.aio.agent;

import org.zstack.aio.agent.trust.AgentIdentity;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;

/**
 * {@code aio-agent enrollment [--rotate] [--valid-for 1h]}: prints the token to give {@code POST /v1/hosts/kvm}
 * (the same line as {@code <AIO_DATA_DIR>/agent-enrollment}); creates the credentials when the agent never ran.
 */
@Command(name = "enrollment", mixinStandardHelpOptions = true,
        description = "Print this agent's enrollment token (for POST /v1/hosts/kvm params.agentEnrollment).")
public final class EnrollmentCommand implements Callable<Integer> {

    @Option(names = "--data-dir", description = "the agent's data dir (env AIO_DATA_DIR, default ./data)")
    Path dataDir;

    @Option(names = "--rotate", description = "replace the secret first: servers enrolled with the old token are "
            + "refused until reconnected with the new one (running VMs are not touched)")
    boolean rotate;

    @Option(names = "--valid-for", description = "print a token that can be used to enroll only for this long "
            + "(ISO-8601 duration or e.g. 30m, 2h)")
    String validFor;

    @Override
    public Integer call() {
        Path dir = dataDir != null ? dataDir : AgentSettings.fromEnvironment(System.getenv()).dataDir();
        if (rotate) {
            AgentIdentity.rotate(dir);
        }
        AgentIdentity id = AgentIdentity.loadOrCreate(dir);
        System.out.println(validFor == null ? id.token() : id.token(Instant.now().plus(parse(validFor))));
        return 0;
    }

    static Duration parse(String text) {
        String t = text.strip().toUpperCase(java.util.Locale.ROOT);
        return Duration.parse(t.startsWith("P") ? t : "PT" + t);
    }
}
