package org.zstack.aio.launcher;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.stereotype.Component;
import org.zstack.aio.agent.AgentSettings;
import org.zstack.aio.agent.KvmAgent;

/**
 * The KVM agent for the local host, run inside the server on 127.0.0.1 (embedded database only, or when
 * aio.embedded-agent=true): real QEMU when qemu:///system answers, libvirt's test driver otherwise. It serves
 * HTTPS and authenticates the server like any agent; its credentials live in AIO_DATA_DIR/embedded-agent.
 */
@Component
@ConditionalOnExpression("'${aio.embedded-agent:auto}' == 'true' or ('${aio.embedded-agent:auto}' == 'auto' and '${AIO_DB_URL:}' == '')")
public class EmbeddedAgent implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedAgent.class);

    /** Where under AIO_DATA_DIR the in-process agent keeps its credentials and storage roots. */
    public static final String DATA_SUBDIR = "embedded-agent";

    private final KvmAgent agent;

    public EmbeddedAgent(@Value("${AIO_AGENT_PORT:7070}") int port, @Value("${AIO_LIBVIRT_URI:}") String libvirtUri,
                         @Value("${AIO_AGENT_REFUSE_IO:}") String refuse, @Value("${AIO_DATA_DIR:./data}") String dataDir) {
        // its own credentials beside the server's data, apart from a bin/aio-agent sharing the same data dir
        AgentSettings s = AgentSettings.defaults().withBindAddress("127.0.0.1").withPort(port)
                .withRefusedIoModes(AgentSettings.parseModes(refuse))
                .withDataDir(java.nio.file.Path.of(dataDir).resolve(DATA_SUBDIR));
        if (!libvirtUri.isBlank()) s = s.withLibvirtUri(libvirtUri);
        this.agent = KvmAgent.start(s);
        log.info("in-process KVM agent on 127.0.0.1:{} with libvirt {}", agent.port(), s.libvirtUri());
    }

    public int port() {
        return agent.port();
    }

    /** The token that enrolls this agent (the demo adds its host with it; tests do the same through the API). */
    public String enrollmentToken() {
        return agent.enrollmentToken();
    }

    @Override
    public void destroy() {
        agent.close();
    }
}
