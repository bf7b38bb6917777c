package org.zstack.aio.server.account;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.zstack.aio.server.api.ApiException;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Failed logins counted per (account name, client address) and per client address over a sliding window: past either
 * limit, a login is refused with 429 and Retry-After before the password is even checked, so guessing costs time
 * whether or not the account exists. The account is never counted alone: then anyone who reaches the API could lock
 * the administrator out from everywhere with a few wrong passwords; this way only the guessing address is stopped.
 * A successful login clears the count of that account from that address. In memory: a restart forgives, which is
 * fine for a limit measured in minutes.
 */
@Component
public class LoginThrottle {

    /** Tracked keys at most: the oldest are dropped first, so a flood of made-up names cannot exhaust memory. */
    static final int MAX_KEYS = 10_000;

    private final int perAccountAndClient;
    private final int perClient;
    private final Duration window;
    private final Clock clock;
    private final Map<String, Deque<Long>> failures = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Deque<Long>> eldest) {
            return size() > MAX_KEYS;
        }
    };

    @Autowired
    public LoginThrottle(@Value("${aio.login.max-failures-per-account-and-client:5}") int perAccountAndClient,
                         @Value("${aio.login.max-failures-per-client:20}") int perClient,
                         @Value("${aio.login.failure-window:PT5M}") Duration window) {
        this(perAccountAndClient, perClient, window, Clock.systemUTC());
    }

    LoginThrottle(int perAccountAndClient, int perClient, Duration window, Clock clock) {
        this.perAccountAndClient = perAccountAndClient;
        this.perClient = perClient;
        this.window = window;
        this.clock = clock;
    }

    /** 429 when this account from this client, or this client at all, has failed too often within the window. */
    public synchronized void check(String accountName, String client) {
        long now = clock.millis();
        long wait = Math.max(waitMillis(accountFrom(accountName, client), perAccountAndClient, now),
                waitMillis(clientKey(client), perClient, now));
        if (wait > 0) {
            throw ApiException.tooManyLoginFailures("too many failed logins for this account from this address, or from"
                                                    + " this address.", Math.max(1, (wait + 999) / 1000));
        }
    }

    public synchronized void failed(String accountName, String client) {
        long now = clock.millis();
        failures.computeIfAbsent(accountFrom(accountName, client), k -> new ArrayDeque<>()).addLast(now);
        failures.computeIfAbsent(clientKey(client), k -> new ArrayDeque<>()).addLast(now);
    }

    public synchronized void succeeded(String accountName, String client) {
        failures.remove(accountFrom(accountName, client));
    }

    // the client part first and separated by a character no address holds: "a|b" cannot be read two ways
    private static String accountFrom(String accountName, String client) {
        return "account@client:" + client + "|" + accountName;
    }

    private static String clientKey(String client) {
        return "client:" + client;
    }

    /** How long until the oldest failure in the window expires, when the limit is reached; else 0. */
    private long waitMillis(String key, int limit, long now) {
        Deque<Long> times = failures.get(key);
        if (times == null) return 0;
        long since = now - window.toMillis();
        while (!times.isEmpty() && times.peekFirst() <= since) times.pollFirst();
        if (times.isEmpty()) {
            failures.remove(key);
            return 0;
        }
        if (times.size() < limit) return 0;
        return times.peekFirst() + window.toMillis() - now;
    }
}
