package org.zstack.aio.server.iomode;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

@Configuration
class DeciderConfiguration {

    /** The decider with the rules of conf/aio/io-mode-rules.yaml (or AIO_RULES_FILE); a bad file stops the boot. */
    @Bean
    IoModeDecider ioModeDecider() {
        return new IoModeDecider(IoModeRulesLoader.load());
    }
}
