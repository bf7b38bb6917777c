package org.zstack.aio.server.api;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.boot.autoconfigure.flyway.FlywayMigrationStrategy;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.zstack.aio.db.DatabaseSettings;
import org.zstack.aio.db.SchemaUpgrade;
import org.zstack.aio.db.UpgradeRefusedException;

import java.util.HashMap;
import java.util.Map;

/** The same database settings as bin/aio-db: AIO_DB_* (environment or --flags), else embedded H2 under AIO_DATA_DIR. */
@Configuration
public class DatabaseConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DatabaseConfiguration.class);

    /**
     * Boot runs the same upgrade as {@code bin/aio-db migrate}: an existing 4.8.0 installation without Flyway history
     * is baselined, a migration left failed by an interrupted upgrade is repaired and re-run (every statement is
     * idempotent), and a database newer than this build or an edited migration stops the boot with a clear message.
     */
    @Bean
    FlywayMigrationStrategy aioSchemaUpgrade() {
        return flyway -> {
            try {
                SchemaUpgrade.Outcome o = new SchemaUpgrade(flyway.getConfiguration()).migrate();
                log.info("database schema: {}", o);
            } catch (UpgradeRefusedException e) {
                System.err.println("aio-server: refusing to start: " + e.getMessage());
                throw e;
            }
        };
    }

    @Bean
    DatabaseSettings databaseSettings(Environment env) {
        Map<String, String> m = new HashMap<>();
        for (String k : new String[]{"AIO_DB_URL", "AIO_DB_USER", "AIO_DB_PASSWORD", "AIO_DATA_DIR"}) {
            String v = env.getProperty(k);
            if (v != null) m.put(k, v);
        }
        return DatabaseSettings.from(m);
    }

    /** Pool settings from spring.datasource.hikari (application.yml); docs/operations.md explains them for Galera. */
    @Bean
    @ConfigurationProperties("spring.datasource.hikari")
    HikariDataSource dataSource(DatabaseSettings db) {
        db.prepareEmbeddedDirectory();
        return DataSourceBuilder.create().type(HikariDataSource.class)
                .url(db.url()).username(db.user()).password(db.password()).build();
    }
}
