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
 * aio.embedded-agent=true): real QEMU when qemu:///system answers, libvirt's test driver otherwise.
 */
@Component
@ConditionalOnExpression("'${aio.embedded-agent:auto}' == 'true' or ('${aio.embedded-agent:auto}' == 'auto' and '${AIO_DB_URL:}' == '')")
public class EmbeddedAgent implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedAgent.class);

    private final KvmAgent agent;

    public EmbeddedAgent(@Value("${AIO_AGENT_PORT:7070}") int port, @Value("${AIO_LIBVIRT_URI:}") String libvirtUri,
                         @Value("${AIO_AGENT_REFUSE_IO:}") String refuse) {
        AgentSettings s = AgentSettings.defaults().withBindAddress("127.0.0.1").withPort(port)
                .withRefusedIoModes(AgentSettings.parseModes(refuse));
        if (!libvirtUri.isBlank()) s = s.withLibvirtUri(libvirtUri);
        this.agent = KvmAgent.start(s);
        log.info("in-process KVM agent on 127.0.0.1:{} with libvirt {}", agent.port(), s.libvirtUri());
    }

    public int port() {
        return agent.port();
    }

    @Override
    public void destroy() {
        agent.close();
    }
}
