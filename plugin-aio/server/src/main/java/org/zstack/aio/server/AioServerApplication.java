package org.zstack.aio.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The management server: platform host, the aio plugin, the REST API and the web UI. */
@SpringBootApplication
public class AioServerApplication {

    /** --flag forms of the AIO_* environment variables (docs/contract.md, "Commands and settings"). */
    static final Map<String, String> FLAGS = Map.of(
            "--db-url", "AIO_DB_URL", "--db-user", "AIO_DB_USER", "--db-password", "AIO_DB_PASSWORD",
            "--admin-password", "AIO_ADMIN_PASSWORD", "--http-port", "AIO_HTTP_PORT", "--agent-port", "AIO_AGENT_PORT",
            "--libvirt-uri", "AIO_LIBVIRT_URI", "--data-dir", "AIO_DATA_DIR");

    public static void main(String[] args) {
        SpringApplication.run(AioServerApplication.class, translate(args));
    }

    /** "--http-port 9090" or "--http-port=9090" become "--AIO_HTTP_PORT=9090", which outranks the environment. */
    public static String[] translate(String[] args) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            int eq = a.indexOf('=');
            String flag = (eq < 0 ? a : a.substring(0, eq)).toLowerCase(Locale.ROOT);
            String env = FLAGS.get(flag);
            if (env == null) {
                out.add(a);
            } else if (eq >= 0) {
                out.add("--" + env + "=" + a.substring(eq + 1));
            } else if (i + 1 < args.length) {
                out.add("--" + env + "=" + args[++i]);
            } else {
                throw new IllegalArgumentException(flag + " needs a value");
            }
        }
        return out.toArray(String[]::new);
    }
}
