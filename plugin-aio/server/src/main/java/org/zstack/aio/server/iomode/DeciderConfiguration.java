package org.zstack.aio.server.iomode;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.zstack.aio.decision.rules.IoModeRulesLoader;
import org.zstack.aio.plugin.DiskIoModes;

@Configuration
class DeciderConfiguration {

    /** The core's use case with the rules of conf/aio/io-mode-rules.yaml (or AIO_RULES_FILE); a bad file stops the boot. */
    @Bean
    DiskIoModes diskIoModes() {
        return new DiskIoModes(IoModeRulesLoader.load());
    }
}
