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

import java.util.HashSet;
import java.util.Set;

/**
 * At boot, makes GlobalConfigVO match conf/globalConfig (ZStack's rule): new definitions are inserted with
 * their default, rows no longer defined are deleted, and a value still equal to its old default follows a
 * changed default. Values an administrator changed are kept.
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
        Set<String> seen = new HashSet<>();
        for (GlobalConfigVO row : rows.findAll()) {
            String id = row.getCategory() + "/" + row.getName();
            var def = definitions.find(row.getCategory(), row.getName());
            if (def.isEmpty()) {
                log.info("global config {} is no longer defined: deleted", id);
                rows.delete(row);
            } else {
                seen.add(id);
                if (row.syncWith(def.get())) log.info("global config {} follows its new definition", id);
            }
        }
        for (GlobalConfigDefinition d : definitions.all()) {
            if (!seen.contains(d.identity())) rows.save(new GlobalConfigVO(d));
        }
    }
}
