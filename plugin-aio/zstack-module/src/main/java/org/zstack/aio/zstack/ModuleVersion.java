package org.zstack.aio.zstack;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The module's version and the ZStack it was built for, as Maven wrote them into the jar (module.properties). */
final class ModuleVersion {
    static final String UNKNOWN = "unknown";

    final String version;
    final String builtForZStack;

    private ModuleVersion(String version, String builtForZStack) {
        this.version = version;
        this.builtForZStack = builtForZStack;
    }

    static ModuleVersion ofJar() {
        Properties p = new Properties();
        try (InputStream in = ModuleVersion.class.getResourceAsStream("module.properties")) {
            if (in != null) p.load(in);
        } catch (IOException e) {
            // an unreadable resource of the module's own jar: reported as unknown, never a failed boot
        }
        return new ModuleVersion(p.getProperty("version", UNKNOWN), p.getProperty("zstack", UNKNOWN));
    }
}
