package org.zstack.aio.server.account;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.api.Uuids;

import org.zstack.aio.server.query.QueryExecutor;
import org.zstack.aio.server.query.QueryReply;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.query.QuerySpec;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/** Accounts, login sessions, and who may do what. */
@Service
public class AccountService {

    public static final String ADMIN = "admin";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private final AccountRepository accounts;
    private final SessionRepository sessions;
    private final Passwords passwords = new Passwords();
    private final Duration sessionTimeout;
    private final QueryReply query;
    private static final QuerySpec<AccountVO> QUERY =
            QuerySpec.of(AccountVO.class, AccountController.AccountInventory.class, "createDate", "uuid").hiding("passwordHash");

    public AccountService(AccountRepository accounts, SessionRepository sessions,
                          @Value("${aio.session-timeout:PT2H}") Duration sessionTimeout, QueryReply query) {
        this.accounts = accounts;
        this.sessions = sessions;
        this.sessionTimeout = sessionTimeout;
        this.query = query;
    }

    @Transactional
    public SessionVO login(String name, String password) {
        Optional<AccountVO> account = name == null ? Optional.empty() : accounts.findByName(name);
        Passwords.Match match = account.isEmpty() ? Passwords.Match.NONE
                : passwords.matches(password, account.get().getPasswordHash());
        if (match == Passwords.Match.NONE) {
            throw new ApiException(ErrorCode.NOT_AUTHENTICATED, "wrong account name or password.",
                    "Check the account name and password (as typed, or its SHA-512 in hex) and log in again.");
        }
        if (match == Passwords.Match.LEGACY) account.get().setPasswordHash(passwords.encode(password));
        return sessions.save(new SessionVO(Uuids.random(), account.get().getUuid(), LocalDateTime.now().plus(sessionTimeout)));
    }

    /** The session uuid is the credential (ZStack's LogOut sends no Authorization): ends it; unknown is a no-op. */
    @Transactional
    public void logout(String sessionUuid) {
        Uuids.require(sessionUuid, "session");
        sessions.findById(sessionUuid).ifPresent(sessions::delete);
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
        return accounts.save(new AccountVO(Uuids.random(), name, passwords.encode(password), AccountVO.NORMAL));
    }

    /** Creates the admin account on first start; returns true when it did. */
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
