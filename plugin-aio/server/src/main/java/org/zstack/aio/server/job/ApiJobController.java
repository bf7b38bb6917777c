package org.zstack.aio.server.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.account.SessionInterceptor;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorBody;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.api.Uuids;

import java.io.IOException;
import java.util.Map;

/**
 * {@code GET /v1/api-jobs/{uuid}}, ZStack's poll: 202 while the job runs, 200 with the call's answer, 503 with
 * its {@code {"error":…}} when it failed (ZStack's SDK reads an error only from a 503 here). Any management node
 * answers: the job is read from the database. A job sent with a session is read by that account (or an admin).
 */
@RestController
@Hidden // a protocol endpoint (the location a 202 names), not an action of its own; see docs/zstack-compatibility.md
public class ApiJobController {

    private final ApiJobRepository jobs;
    private final AccountService accounts;
    private final ObjectMapper json;

    public ApiJobController(ApiJobRepository jobs, AccountService accounts, ObjectMapper json) {
        this.jobs = jobs;
        this.accounts = accounts;
        this.json = json;
    }

    @Operation(operationId = "GetApiJob", description = "ZStack's poll of a call sent with X-Job-UUID")
    @GetMapping("/v1/api-jobs/{uuid}")
    public ResponseEntity<?> poll(@PathVariable String uuid, HttpServletRequest request) {
        ApiJobVO job = jobs.findById(uuid).orElseThrow(() -> new ApiException(ErrorCode.NOT_FOUND,
                "no job with uuid " + Uuids.abbreviate(uuid) + ".",
                "Poll the location a call sent with X-Job-UUID answered with."));
        if (job.getAccountUuid() != null) {
            Caller caller = accounts.authenticate(SessionInterceptor.sessionOf(request));
            if (!caller.owns(job.getAccountUuid())) throw ApiException.forbidden("job " + uuid + " belongs to another account.");
        }
        return switch (job.getState()) {
            case Running -> ResponseEntity.status(202).body(Map.of("location", ApiJobFilter.location(request, uuid)));
            case Succeeded -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                    .body(job.getResult() == null || job.getResult().isBlank() ? "{}" : job.getResult());
            case Failed -> ResponseEntity.status(503).contentType(MediaType.APPLICATION_JSON).body(errorBody(job));
        };
    }

    /** The failed call's error body; anything else (not the API's error form) wrapped into one. */
    private String errorBody(ApiJobVO job) {
        try {
            JsonNode n = job.getResult() == null ? null : json.readTree(job.getResult());
            if (n != null && n.path("error").isObject()) return job.getResult();
            return json.writeValueAsString(ErrorBody.of(ErrorCode.INTERNAL,
                    "the job's call failed with HTTP " + job.getHttpStatus() + " and no API error body.",
                    "Retry with a new X-Job-UUID; if it persists, look at the server log around this time."));
        } catch (IOException e) {
            return "{\"error\":{\"code\":\"" + ErrorCode.INTERNAL.code() + "\",\"description\":\"the job's call failed with HTTP "
                   + job.getHttpStatus() + ".\",\"details\":\"Retry with a new X-Job-UUID.\"}}";
        }
    }
}
