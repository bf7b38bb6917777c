package org.zstack.aio.server.account;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import java.security.SecureRandom;
import java.util.Base64;

/** Creates the admin account on an empty database: AIO_ADMIN_PASSWORD, or a random one printed once. */
@Component
@Order(10)
class AdminBootstrap implements ApplicationRunner {

    private final AccountService accounts;
    private final String configured;

    AdminBootstrap(AccountService accounts, @Value("${AIO_ADMIN_PASSWORD:}") String configured) {
        this.accounts = accounts;
        this.configured = configured;
    }

    @Override
    public void run(ApplicationArguments args) {
        boolean generated = configured.isBlank();
        String password = generated ? randomPassword() : configured;
        if (accounts.ensureAdmin(password) && generated) {
            // printed once, on stdout, on the only start that creates the account; only its hash is stored
            System.out.println("aio-server: created account 'admin' with password: " + password
                               + "  (set AIO_ADMIN_PASSWORD to choose it; it is not shown again)");
        }
    }

    private static String randomPassword() {
        byte[] b = new byte[15];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
