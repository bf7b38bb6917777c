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
 * Failed logins counted per account name and per client address over a sliding window: past the limit, a login is
 * refused with 429 and Retry-After before the password is even checked, so guessing costs time whether or not the
 * account exists. A successful login clears the account's count. In memory: a restart forgives, which is fine for a
 * limit measured in minutes.
 */
@Component
public class LoginThrottle {

    /** Tracked keys at most: the oldest are dropped first, so a flood of made-up names cannot exhaust memory. */
    static final int MAX_KEYS = 10_000;

    private final int perAccount;
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
    public LoginThrottle(@Value("${aio.login.max-failures-per-account:5}") int perAccount,
                         @Value("${aio.login.max-failures-per-client:20}") int perClient,
                         @Value("${aio.login.failure-window:PT5M}") Duration window) {
        this(perAccount, perClient, window, Clock.systemUTC());
    }

    LoginThrottle(int perAccount, int perClient, Duration window, Clock clock) {
        this.perAccount = perAccount;
        this.perClient = perClient;
        this.window = window;
        this.clock = clock;
    }

    /** 429 when this account or this client has failed too often within the window. */
    public synchronized void check(String accountName, String client) {
        long now = clock.millis();
        long wait = Math.max(waitMillis("account:" + accountName, perAccount, now), waitMillis("client:" + client, perClient, now));
        if (wait > 0) {
            throw ApiException.tooManyLoginFailures("too many failed logins for this account or from this address.",
                    Math.max(1, (wait + 999) / 1000));
        }
    }

    public synchronized void failed(String accountName, String client) {
        long now = clock.millis();
        failures.computeIfAbsent("account:" + accountName, k -> new ArrayDeque<>()).addLast(now);
        failures.computeIfAbsent("client:" + client, k -> new ArrayDeque<>()).addLast(now);
    }

    public synchronized void succeeded(String accountName) {
        failures.remove("account:" + accountName);
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
