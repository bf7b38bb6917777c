package org.zstack.aio.server.api;

import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.zstack.aio.db.DatabaseSettings;

import javax.sql.DataSource;
import java.util.HashMap;
import java.util.Map;

/** The same database settings as bin/aio-db: AIO_DB_* (environment or --flags), else embedded H2 under AIO_DATA_DIR. */
@Configuration
public class DatabaseConfiguration {

    @Bean
    DatabaseSettings databaseSettings(Environment env) {
        Map<String, String> m = new HashMap<>();
        for (String k : new String[]{"AIO_DB_URL", "AIO_DB_USER", "AIO_DB_PASSWORD", "AIO_DATA_DIR"}) {
            String v = env.getProperty(k);
            if (v != null) m.put(k, v);
        }
        return DatabaseSettings.from(m);
    }

    @Bean
    DataSource dataSource(DatabaseSettings db) {
        return DataSourceBuilder.create().url(db.url()).username(db.user()).password(db.password()).build();
    }
}
