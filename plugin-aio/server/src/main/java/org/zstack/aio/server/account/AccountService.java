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

import java.nio.charset.StandardCharsets;
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
    static final int MAX_PASSWORD_BYTES = 72;
    /** Compared against when the account does not exist, so both answers take one bcrypt check. */
    private static final String UNKNOWN_ACCOUNT_HASH = new BCryptPasswordEncoder().encode("no such account");

    private final AccountRepository accounts;
    private final SessionRepository sessions;
    private final BCryptPasswordEncoder encoder = new BCryptPasswordEncoder();
    private final Duration sessionTimeout;
    private final LoginThrottle throttle;

    public AccountService(AccountRepository accounts, SessionRepository sessions, LoginThrottle throttle,
                          @Value("${aio.session-timeout:PT2H}") Duration sessionTimeout) {
        this.throttle = throttle;
        this.accounts = accounts;
        this.sessions = sessions;
        this.sessionTimeout = sessionTimeout;
    }

    /** A new session: the token goes to the client once; the database keeps only its hash. */
    public record LoggedIn(String token, String accountUuid, LocalDateTime expiredDate) {
    }

    /**
     * PUT /v1/accounts/login. Throttled per account name and per client address (429); an unknown name costs the same
     * bcrypt comparison as a known one, so timing does not tell whether an account exists.
     */
    @Transactional
    public LoggedIn login(String name, String password, String client) {
        requireBcryptLength(password);
        throttle.check(name, client);
        Optional<AccountVO> account = name == null ? Optional.empty() : accounts.findByName(name);
        boolean ok = encoder.matches(password == null ? "" : password,
                account.map(AccountVO::getPasswordHash).orElse(UNKNOWN_ACCOUNT_HASH));
        if (account.isEmpty() || password == null || !ok) {
            throttle.failed(name, client);
            throw new ApiException(ErrorCode.NOT_AUTHENTICATED, "wrong account name or password.",
                    "Check the account name and password and log in again.");
        }
        throttle.succeeded(name);
        String token = Uuids.random();
        SessionVO s = sessions.save(new SessionVO(SessionTokens.hash(token), account.get().getUuid(),
                LocalDateTime.now().plus(sessionTimeout)));
        return new LoggedIn(token, s.getAccountUuid(), s.getExpiredDate());
    }

    /** bcrypt reads 72 bytes: a longer password would be checked only by its start, so it is refused outright. */
    static void requireBcryptLength(String password) {
        if (password != null && password.getBytes(StandardCharsets.UTF_8).length > MAX_PASSWORD_BYTES) {
            throw ApiException.badRequest("the password is over " + MAX_PASSWORD_BYTES + " bytes (UTF-8).",
                    "Passwords are at most " + MAX_PASSWORD_BYTES + " bytes; check what is being sent.");
        }
    }

    @Transactional
    public void logout(Caller caller, String sessionUuid) {
        Uuids.require(sessionUuid, "session");
        if (!caller.sessionUuid().equals(sessionUuid) && !caller.admin()) {
            throw ApiException.forbidden("you may only log out your own session.");
        }
        String id = SessionTokens.hash(sessionUuid);
        if (!sessions.existsById(id)) {
            throw new ApiException(ErrorCode.NOT_FOUND, "there is no session " + sessionUuid + ".",
                    "It has already ended (logged out or expired); nothing to do.");
        }
        sessions.deleteById(id);
    }

    /** The caller behind a session, or 401. */
    public Caller authenticate(String sessionUuid) {
        AccountVO a = sessionUuid == null ? null : sessions.findLiveAccount(SessionTokens.hash(sessionUuid)).orElse(null);
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
        if (password == null || password.length() < 8) {
            throw ApiException.badRequest("the password must be at least 8 characters long.", "Choose a longer password.");
        }
        requireBcryptLength(password);
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
