package org.zstack.aio.launcher;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.zstack.aio.server.AioServerApplication;

/**
 * The all-in-one launcher ({@code bin/aio-server}): the management server plus, on the embedded database (or with
 * aio.embedded-agent=true), a KVM agent for this host running in the same process and a demo inventory. The
 * management server itself knows nothing of the agent's code: it talks to any agent over HTTP.
 */
@Configuration
@ComponentScan
public class AioLauncher {

    public static void main(String[] args) {
        run(AioServerApplication.translate(args));
    }

    /** Boots the server with the launcher's beans; {@code args} are Spring arguments ({@code --key=value}). */
    public static ConfigurableApplicationContext run(String... args) {
        return SpringApplication.run(new Class<?>[] {AioServerApplication.class, AioLauncher.class}, args);
    }
}
