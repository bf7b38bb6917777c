package org.zstack.aio.server.account;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.retry.annotation.Retryable;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.db.UnitOfWork;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.api.Uuids;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Optional;
import java.util.regex.Pattern;

/** Accounts, login sessions, and who may do what. */
@Service
@Retryable(interceptor = UnitOfWork.IDEMPOTENT)
public class AccountService {

    public static final String ADMIN = "admin";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private final AccountRepository accounts;
    private final SessionRepository sessions;
    private final BCryptPasswordEncoder encoder = new BCryptPasswordEncoder();
    private final Duration sessionTimeout;

    public AccountService(AccountRepository accounts, SessionRepository sessions,
                          @Value("${aio.session-timeout:PT2H}") Duration sessionTimeout) {
        this.accounts = accounts;
        this.sessions = sessions;
        this.sessionTimeout = sessionTimeout;
    }

    @Transactional
    public SessionVO login(String name, String password) {
        Optional<AccountVO> account = name == null ? Optional.empty() : accounts.findByName(name);
        if (account.isEmpty() || password == null || !encoder.matches(password, account.get().getPasswordHash())) {
            throw new ApiException(ErrorCode.NOT_AUTHENTICATED, "wrong account name or password.",
                    "Check the account name and password and log in again.");
        }
        return sessions.save(new SessionVO(Uuids.random(), account.get().getUuid(), LocalDateTime.now().plus(sessionTimeout)));
    }

    @Transactional
    public void logout(Caller caller, String sessionUuid) {
        if (!caller.sessionUuid().equals(sessionUuid) && !caller.admin()) {
            throw ApiException.forbidden("you may only log out your own session.");
        }
        sessions.deleteById(sessionUuid);
    }

    /** The caller behind a session, or 401. */
    public Caller authenticate(String sessionUuid) {
        AccountVO a = sessionUuid == null ? null : sessions.findLiveAccount(sessionUuid).orElse(null);
        if (a == null) {
            throw new ApiException(ErrorCode.NOT_AUTHENTICATED, "the session is missing, unknown or expired.",
                    "Log in with PUT /v1/accounts/login and send 'Authorization: OAuth <session uuid>'.");
        }
        return new Caller(a.getUuid(), a.getName(), a.isAdmin(), sessionUuid);
    }

    @Retryable(interceptor = UnitOfWork.NOT_IDEMPOTENT)
    @Transactional
    public AccountVO createTenant(Caller caller, String name, String password) {
        requireAdmin(caller, "create accounts");
        if (name == null || !NAME.matcher(name).matches()) {
            throw ApiException.badRequest("account name '" + Uuids.abbreviate(name) + "' is not valid.",
                    "Use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.");
        }
        if (password == null || password.length() < 8 || password.length() > 128) {
            throw ApiException.badRequest("the password must be 8 to 128 characters long.", "Choose a longer password.");
        }
        if (accounts.findByName(name).isPresent()) {
            throw ApiException.conflict("an account named " + name + " already exists.", "Choose another name.");
        }
        return accounts.save(new AccountVO(Uuids.random(), name, encoder.encode(password), AccountVO.NORMAL));
    }

    /** Creates the admin account on first start; returns true when it did. */
    @Retryable(interceptor = UnitOfWork.ENSURE)
    @Transactional
    public boolean ensureAdmin(String password) {
        if (accounts.findByName(ADMIN).isPresent()) return false;
        accounts.save(new AccountVO(Uuids.random(), ADMIN, encoder.encode(password), AccountVO.SYSTEM_ADMIN));
        return true;
    }

    public static void requireAdmin(Caller caller, String action) {
        if (!caller.admin()) throw ApiException.forbidden("only an administrator may " + action + ".");
    }
}
