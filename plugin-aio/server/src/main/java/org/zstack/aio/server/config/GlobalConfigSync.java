package org.zstack.aio.server.config;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.retry.annotation.Retryable;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.db.UnitOfWork;

/**
 * At boot, brings the plugin's own GlobalConfigVO rows up to conf/globalConfig: a missing definition is inserted
 * with its default, and a value still equal to its old default follows a changed default. Values an administrator
 * changed are kept. The table is shared with the whole platform (host/..., storage/..., other kvm/... configs), so
 * a row this plugin does not define is never read for change, rewritten or deleted.
 */
@Component
@Order(1)
public class GlobalConfigSync implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(GlobalConfigSync.class);

    private final ConfigDefinitions definitions;
    private final GlobalConfigRepository rows;

    public GlobalConfigSync(ConfigDefinitions definitions, GlobalConfigRepository rows) {
        this.definitions = definitions;
        this.rows = rows;
    }

    @Override
    @Retryable(interceptor = UnitOfWork.ENSURE)
    @Transactional
    public void run(ApplicationArguments args) {
        for (GlobalConfigDefinition d : definitions.all()) {
            var row = rows.findByCategoryAndName(d.category(), d.name());
            if (row.isEmpty()) {
                rows.save(new GlobalConfigVO(d));
            } else if (row.get().syncWith(d)) {
                log.info("global config {} follows its new definition", d.identity());
            }
        }
    }
}
