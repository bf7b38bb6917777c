package org.zstack.aio.zstack;

import org.zstack.aio.plugin.MeasureSettings;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/** The measuring files the module ships in its jar (conf/aio/): measure.properties and the benchmark's scripts. */
final class MeasureFiles {

    private MeasureFiles() {
    }

    static Properties properties() {
        Properties p = new Properties();
        try (InputStream in = open(MeasureSettings.RESOURCE)) {
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + MeasureSettings.RESOURCE + ": " + e.getMessage(), e);
        }
        return p;
    }

    static String text(String resource) {
        try (InputStream in = open(resource)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            for (int n = in.read(buf); n > 0; n = in.read(buf)) out.write(buf, 0, n);
            return new String(out.toByteArray(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource + ": " + e.getMessage(), e);
        }
    }

    private static InputStream open(String resource) {
        InputStream in = MeasureFiles.class.getClassLoader().getResourceAsStream(resource);
        if (in == null) throw new IllegalStateException(resource + " is not in the module's jar");
        return in;
    }
}
