package org.zstack.aio.server.account;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerInterceptor;

/** Every /v1 call but login carries {@code Authorization: OAuth <session>}; the caller is put on the request. */
@Component
public class SessionInterceptor implements HandlerInterceptor {

    public static final String CALLER = SessionInterceptor.class.getName() + ".caller";

    private final AccountService accounts;

    public SessionInterceptor(AccountService accounts) {
        this.accounts = accounts;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        request.setAttribute(CALLER, accounts.authenticate(sessionOf(request)));
        return true;
    }

    /** The session uuid of {@code Authorization: OAuth <session>}, or null. */
    public static String sessionOf(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "OAuth ", 0, 6)) return header.substring(6).trim();
        return null;
    }
}
