package org.zstack.aio.agent.support;

import org.zstack.aio.agent.AgentSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Agents for tests: a free port on loopback and their own data dir (own credentials and storage roots). */
public final class TestAgents {

    private TestAgents() {
    }

    public static AgentSettings settings() {
        return AgentSettings.defaults().withPort(0).withBindAddress("127.0.0.1").withDataDir(newDataDir());
    }

    public static Path newDataDir() {
        try {
            Files.createDirectories(Path.of("target"));
            return Files.createTempDirectory(Path.of("target").toAbsolutePath(), "agent-data-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
