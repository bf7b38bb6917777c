package org.zstack.aio.server.account;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.springframework.retry.annotation.Retryable;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.db.UnitOfWork;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.api.Uuids;
import org.zstack.aio.server.query.QueryExecutor;
import org.zstack.aio.server.query.QueryReply;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.query.QuerySpec;
import org.springframework.context.ApplicationEventPublisher;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/** Accounts, login sessions, and who may do what. */
@Service
@Retryable(interceptor = UnitOfWork.IDEMPOTENT)
public class AccountService {

    public static final String ADMIN = "admin";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    /** Bounds the hashing work a request can ask for; bcrypt itself sees a fixed-length digest (see Passwords). */
    static final int MAX_PASSWORD_BYTES = 1024;

    private final AccountRepository accounts;
    private final SessionRepository sessions;
    private final Passwords passwords = new Passwords();
    /** Compared against when the account does not exist, so both answers cost the same bcrypt checks. */
    private final String unknownAccountHash = passwords.encode("no such account");
    private final Duration sessionTimeout;
    private final LoginThrottle throttle;
    private final QueryReply query;
    private final ApplicationEventPublisher events;
    private static final QuerySpec<AccountVO> QUERY =
            QuerySpec.of(AccountVO.class, AccountController.AccountInventory.class, "createDate", "uuid").hiding("passwordHash");

    public AccountService(AccountRepository accounts, SessionRepository sessions, LoginThrottle throttle,
                          @Value("${aio.session-timeout:PT2H}") Duration sessionTimeout, QueryReply query,
                          ApplicationEventPublisher events) {
        this.throttle = throttle;
        this.accounts = accounts;
        this.sessions = sessions;
        this.sessionTimeout = sessionTimeout;
        this.query = query;
        this.events = events;
    }

    /** A new session: the token goes to the client once; the database keeps only its hash. */
    public record LoggedIn(String token, String accountUuid, LocalDateTime expiredDate, LocalDateTime createDate) {
    }

    /**
     * PUT /v1/accounts/login, the password as typed or as its SHA-512 hex (ZStack's clients). Throttled per (account
     * name, client address) and per client address (429); an unknown name costs the same bcrypt checks as a known
     * one, so timing does not tell whether an account exists.
     */
    @Transactional
    public LoggedIn login(String name, String password, String client) {
        requirePasswordLength(password);
        throttle.check(name, client);
        Optional<AccountVO> account = name == null ? Optional.empty() : accounts.findByName(name);
        Passwords.Match match = passwords.matches(password == null ? "" : password,
                account.map(AccountVO::getPasswordHash).orElse(unknownAccountHash));
        if (account.isEmpty() || password == null || match == Passwords.Match.NONE) {
            throttle.failed(name, client);
            ApiException refused = new ApiException(ErrorCode.NOT_AUTHENTICATED, "wrong account name or password.",
                    "Check the account name and password (as typed, or its SHA-512 in hex) and log in again.");
            events.publishEvent(new AccountEvents.LoginRefused(name, refused.description())); // audited
            throw refused;
        }
        throttle.succeeded(name, client);
        if (match == Passwords.Match.LEGACY) account.get().setPasswordHash(passwords.encode(password));
        String token = Uuids.random();
        SessionVO s = sessions.save(new SessionVO(SessionTokens.hash(token), account.get().getUuid(),
                LocalDateTime.now().plus(sessionTimeout)));
        return new LoggedIn(token, s.getAccountUuid(), s.getExpiredDate(), s.getCreateDate());
    }

    static void requirePasswordLength(String password) {
        if (password != null && password.getBytes(StandardCharsets.UTF_8).length > MAX_PASSWORD_BYTES) {
            throw ApiException.badRequest("the password is over " + MAX_PASSWORD_BYTES + " bytes (UTF-8).",
                    "Passwords are at most " + MAX_PASSWORD_BYTES + " bytes; check what is being sent.");
        }
    }

    /**
     * The session uuid in the path is the credential (ZStack's LogOut sends no Authorization): ends it. A malformed
     * uuid is a 400, a session that is not there (ended, expired, never was) a 404.
     */
    @Transactional
    public void logout(String sessionUuid) {
        Uuids.require(sessionUuid, "session");
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
        requirePasswordLength(password);
        if (accounts.findByName(name).isPresent()) {
            throw ApiException.conflict("an account named " + name + " already exists.", "Choose another name.");
        }
        AccountVO created = accounts.save(new AccountVO(Uuids.random(), name, passwords.encode(password), AccountVO.NORMAL));
        events.publishEvent(new AccountEvents.AccountCreated(caller, created.getUuid(), name, AccountVO.NORMAL)); // audited, same transaction
        return created;
    }

    /** Creates the admin account on first start; returns true when it did. */
    @Retryable(interceptor = UnitOfWork.ENSURE)
    @Transactional
    public boolean ensureAdmin(String password) {
        if (accounts.findByName(ADMIN).isPresent()) return false;
        accounts.save(new AccountVO(Uuids.random(), ADMIN, passwords.encode(password), AccountVO.SYSTEM_ADMIN));
        return true;
    }

    /** GET /v1/accounts with ZStack's query parameters: an admin sees every account, a tenant its own. */
    public Map<String, Object> query(Caller caller, QueryRequest q, Function<List<AccountVO>, List<?>> inventories) {
        QueryExecutor.Scope<AccountVO> scope = caller.admin() ? QueryExecutor.Scope.all()
                : (cb, cq, root) -> cb.equal(root.get("uuid"), caller.accountUuid());
        return query.answer(QUERY, q, scope, inventories);
    }

    public static void requireAdmin(Caller caller, String action) {
        if (!caller.admin()) throw ApiException.forbidden("only an administrator may " + action + ".");
    }
}
