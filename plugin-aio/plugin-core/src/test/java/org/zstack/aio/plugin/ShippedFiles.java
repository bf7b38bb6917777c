package org.zstack.aio.plugin;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** The files of conf/aio as the repository ships them (plugin-core's tests run in plugin-aio/plugin-core). */
public final class ShippedFiles {

    public static final Path CONF = Path.of("..", "..", "conf", "aio");
    public static final Path BENCH_SCRIPT = CONF.resolve("host-bench.sh");
    public static final Path SAMPLE_SCRIPT = CONF.resolve("host-sample.sh");

    private ShippedFiles() {
    }

    public static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Properties measureProperties() {
        try (Reader r = Files.newBufferedReader(CONF.resolve("measure.properties"), StandardCharsets.UTF_8)) {
            Properties p = new Properties();
            p.load(r);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The shipped settings with some values changed (key, value, key, value, ...). */
    public static MeasureSettings measureSettings(String... overrides) {
        Properties p = measureProperties();
        for (int i = 0; i < overrides.length; i += 2) p.setProperty(overrides[i], overrides[i + 1]);
        return MeasureSettings.of(p, "measure.properties");
    }
}
