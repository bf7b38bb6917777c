package org.zstack.aio.server.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.SessionInterceptor;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorBody;
import org.zstack.aio.server.api.ErrorCode;

import java.io.IOException;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * ZStack's asynchronous job protocol, for every write call that asks for it with {@code X-Job-UUID} (ZStack's SDK
 * always does): the call is accepted at once with 202 {@code {"location": ".../v1/api-jobs/<uuid>"}}, runs on this
 * node ({@link ApiJobRunner}), and its answer is stored for {@code GET /v1/api-jobs/{uuid}}. Calls without the
 * header, reads, login and logout are answered synchronously as before. A job uuid sent again (a client retrying)
 * does not run the call twice: the existing job's location is the answer.
 */
@Component
@Order(10)
public class ApiJobFilter extends OncePerRequestFilter {

    public static final String HEADER = "X-Job-UUID";
    private static final Pattern JOB_UUID = Pattern.compile("[A-Za-z0-9-]{1,64}");
    private static final Pattern SYNCHRONOUS = Pattern.compile("/v1/accounts/login|/v1/accounts/sessions/[^/]*|/v1/api-jobs/.*");

    private final ApiJobRunner runner;
    private final AccountService accounts;
    private final ObjectMapper json;

    public ApiJobFilter(ApiJobRunner runner, AccountService accounts, ObjectMapper json) {
        this.runner = runner;
        this.accounts = accounts;
        this.json = json;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return request.getHeader(HEADER) == null || "GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod())
               || !path.startsWith("/v1/") || SYNCHRONOUS.matcher(path).matches();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String jobUuid = request.getHeader(HEADER);
        if (!JOB_UUID.matcher(jobUuid).matches()) {
            write(response, 400, ErrorBody.of(ErrorCode.INVALID_ARGUMENT, "header " + HEADER + " is not a job uuid.",
                    "Send 1-64 letters, digits or '-', e.g. a UUID, or leave the header out for a synchronous answer."));
            return;
        }
        String accountUuid;
        try {
            accountUuid = accounts.authenticate(SessionInterceptor.sessionOf(request)).accountUuid();
        } catch (ApiException e) {
            accountUuid = null; // the job runs, gets the same 401 as the synchronous call, and stores it
        }
        ApiJobRunner.Accepted accepted = runner.submit(jobUuid, accountUuid, request);
        if (accepted == ApiJobRunner.Accepted.OTHER_OWNER) {
            write(response, 409, ErrorBody.of(ErrorCode.CONFLICT, "job " + jobUuid + " already exists for another account.",
                    "Send a new, random " + HEADER + " with each call."));
            return;
        }
        write(response, 202, Map.of("location", location(request, jobUuid)));
    }

    /** {@code <scheme>://<Host header>/v1/api-jobs/<uuid>}: where the client reached this server, for its polls. */
    static String location(HttpServletRequest request, String jobUuid) {
        String host = request.getHeader("Host");
        if (host == null || host.isBlank()) host = request.getServerName() + ":" + request.getServerPort();
        return request.getScheme() + "://" + host + request.getContextPath() + "/v1/api-jobs/" + jobUuid;
    }

    private void write(HttpServletResponse response, int status, Object body) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        json.writeValue(response.getOutputStream(), body);
    }
}
