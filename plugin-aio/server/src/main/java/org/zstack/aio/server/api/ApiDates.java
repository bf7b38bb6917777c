package org.zstack.aio.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.zstack.aio.plugin.IsoDates;

import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;

/**
 * The API's one date form: ISO-8601 in UTC with milliseconds and a {@code Z}, e.g. {@code 2026-11-22T12:56:27.220Z}.
 * ZStack's SDK (gson) refuses a date without a zone. Stored {@link LocalDateTime}s are the server's local time
 * ({@code LocalDateTime.now()}); inventories carry them, or {@link Instant}s, and never format dates themselves.
 */
@Configuration
public class ApiDates {

    /** The core's form ({@link IsoDates}), so both platforms write a date the same way. */
    public static String format(Instant t) {
        return IsoDates.format(t.toEpochMilli());
    }

    /** A stored local date-time (server time zone) as the API shows it. */
    public static String format(LocalDateTime serverLocal) {
        return format(serverLocal.atZone(ZoneId.systemDefault()).toInstant());
    }

    @Bean
    SimpleModule apiDatesModule() {
        SimpleModule m = new SimpleModule("aio-api-dates");
        m.addSerializer(Instant.class, new JsonSerializer<>() {
            @Override
            public void serialize(Instant v, JsonGenerator g, SerializerProvider p) throws IOException {
                g.writeString(format(v));
            }
        });
        m.addSerializer(LocalDateTime.class, new JsonSerializer<>() {
            @Override
            public void serialize(LocalDateTime v, JsonGenerator g, SerializerProvider p) throws IOException {
                g.writeString(format(v));
            }
        });
        return m;
    }
}
