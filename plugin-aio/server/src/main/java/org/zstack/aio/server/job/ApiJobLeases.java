package org.zstack.aio.server.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.zstack.aio.server.api.ErrorBody;
import org.zstack.aio.server.api.ErrorCode;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps API jobs honest across management nodes, through the database only: the node running a job renews it
 * (its lastOpDate) every few seconds; a Running job nobody renewed for {@link #LOST_AFTER} belongs to a node that
 * died, and any node marks it Failed, so its poll answers 503 with a sentence instead of 202 forever. Finished
 * jobs are deleted {@code aio.jobs.retention} after they finished (default one day).
 */
@Component
public class ApiJobLeases {

    private static final Logger log = LoggerFactory.getLogger(ApiJobLeases.class);
    static final Duration RENEW_EVERY = Duration.ofSeconds(5);
    /** six missed renewals: long enough for a GC pause or a database failover (~6 s on Galera) */
    static final Duration LOST_AFTER = Duration.ofSeconds(30);

    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final ApiJobRepository jobs;
    private final Duration retention;
    private final String lostAnswer;
    /** false only where a test counts one call's statements (background renewals would add theirs) */
    private final boolean enabled;

    public ApiJobLeases(ApiJobRepository jobs, ObjectMapper json,
                        @Value("${aio.jobs.retention:P1D}") Duration retention,
                        @Value("${aio.tracker.enabled:true}") boolean enabled) throws JsonProcessingException {
        this.jobs = jobs;
        this.retention = retention;
        this.enabled = enabled;
        this.lostAnswer = json.writeValueAsString(ErrorBody.of(ErrorCode.NODE_LOST,
                "the management node that ran this job stopped before the job finished; what it did is unknown.",
                "Check the resource's state (GET it), then retry the call with a new X-Job-UUID if it is still needed."));
    }

    void started(String jobUuid) {
        running.add(jobUuid);
    }

    void finished(String jobUuid) {
        running.remove(jobUuid);
    }

    @Scheduled(fixedDelay = 5000, initialDelay = 5000)
    void maintain() {
        if (!enabled) return;
        LocalDateTime now = LocalDateTime.now();
        try {
            List<String> mine = List.copyOf(running);
            if (!mine.isEmpty()) jobs.renew(mine, now);
            int lost = jobs.failUnrenewed(now.minus(LOST_AFTER), lostAnswer, now);
            if (lost > 0) log.warn("{} API job(s) of a management node that stopped are now Failed", lost);
            jobs.pruneFinished(now.minus(retention));
        } catch (DataAccessException | TransactionException e) {
            // the database is away: nothing is renewed or failed until it is back, and LOST_AFTER covers a failover
            log.warn("cannot maintain API jobs: {}", e.getMostSpecificCause().getMessage());
        }
    }
}
