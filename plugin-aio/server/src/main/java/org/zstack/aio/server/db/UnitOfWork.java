package org.zstack.aio.server.db;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.classify.Classifier;
import org.springframework.retry.RetryCallback;
import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryListener;
import org.springframework.retry.RetryPolicy;
import org.springframework.retry.backoff.ExponentialRandomBackOffPolicy;
import org.springframework.retry.policy.ExceptionClassifierRetryPolicy;
import org.springframework.retry.policy.NeverRetryPolicy;
import org.springframework.retry.policy.SimpleRetryPolicy;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.util.Set;
import java.util.function.Supplier;

/**
 * The retry policies for units of work, and a programmatic way to run one (for the database steps of a flow that
 * also talks to an agent: only the database steps are retried, never the agent call).
 * <ul>
 *   <li>{@link #IDEMPOTENT}: running it twice leaves the same result (a config set to a value, a read, a
 *       compare-and-set state change). Retried on conflicts and on a lost connection.</li>
 *   <li>{@link #NOT_IDEMPOTENT}: a second run could repeat an effect (a create with a new uuid). Retried only when
 *       nothing can have been committed: conflicts (rolled back) and connections that could not be opened.</li>
 * </ul>
 * Bounded: {@code aio.db.retry.max-attempts} (default 10) with exponential backoff and full jitter from 20 ms up to
 * 1 s, which covers a Galera write stall of about 5 s ({@code evs.suspect_timeout}) after a node dies.
 */
public class UnitOfWork {

    public static final String IDEMPOTENT = "idempotentUnitOfWork";
    public static final String NOT_IDEMPOTENT = "nonIdempotentUnitOfWork";
    /** "create if missing" (the admin account, the global config rows at boot): a duplicate key means another
     *  management node created the row at the same moment, and running again finds it. */
    public static final String ENSURE = "ensureUnitOfWork";

    private static final Logger log = LoggerFactory.getLogger(UnitOfWork.class);

    private final RetryTemplate idempotent;
    private final RetryTemplate conflicts;
    private final RetryTemplate ensure;

    public UnitOfWork(int maxAttempts, long initialMs, long maxMs, PoolHome pool) {
        this.idempotent = template(maxAttempts, initialMs, maxMs, pool,
                Set.of(DatabaseFailure.CONFLICT, DatabaseFailure.NOT_CONNECTED, DatabaseFailure.CONNECTION_LOST));
        this.conflicts = template(maxAttempts, initialMs, maxMs, pool,
                Set.of(DatabaseFailure.CONFLICT, DatabaseFailure.NOT_CONNECTED));
        this.ensure = template(maxAttempts, initialMs, maxMs, pool, Set.of(DatabaseFailure.CONFLICT,
                DatabaseFailure.NOT_CONNECTED, DatabaseFailure.CONNECTION_LOST, DatabaseFailure.DUPLICATE));
    }

    /** Runs a unit of work that is safe to repeat, retrying it as a whole; not inside another transaction. */
    public <T> T idempotent(Supplier<T> work) {
        return run(idempotent, work);
    }

    public void idempotent(Runnable work) {
        run(idempotent, () -> { work.run(); return null; });
    }

    RetryTemplate idempotentTemplate() { return idempotent; }

    RetryTemplate conflictTemplate() { return conflicts; }

    RetryTemplate ensureTemplate() { return ensure; }

    private static <T> T run(RetryTemplate t, Supplier<T> work) {
        if (TransactionSynchronizationManager.isActualTransactionActive()) return work.get();
        return t.execute(ctx -> work.get());
    }

    private static RetryTemplate template(int maxAttempts, long initialMs, long maxMs, PoolHome pool,
                                          Set<DatabaseFailure> retried) {
        SimpleRetryPolicy bounded = new SimpleRetryPolicy(maxAttempts);
        NeverRetryPolicy never = new NeverRetryPolicy();
        ExceptionClassifierRetryPolicy policy = new ExceptionClassifierRetryPolicy();
        policy.setExceptionClassifier((Classifier<Throwable, RetryPolicy>) e ->
                retried.contains(DatabaseFailure.of(e)) ? bounded : never);
        ExponentialRandomBackOffPolicy backoff = new ExponentialRandomBackOffPolicy();
        backoff.setInitialInterval(initialMs);
        backoff.setMultiplier(2);
        backoff.setMaxInterval(maxMs);
        RetryTemplate t = new RetryTemplate();
        t.setRetryPolicy(policy);
        t.setBackOffPolicy(backoff);
        t.registerListener(new RetryListener() {
            @Override
            public <T, E extends Throwable> void onError(RetryContext ctx, RetryCallback<T, E> cb, Throwable e) {
                DatabaseFailure f = DatabaseFailure.of(e);
                if (f == DatabaseFailure.CONNECTION_LOST || f == DatabaseFailure.NOT_CONNECTED) pool.moveAway();
                if (f != DatabaseFailure.OTHER) {
                    log.info("unit of work failed ({}, attempt {}): {}", f, ctx.getRetryCount(), e.getMessage());
                }
            }
        });
        return t;
    }
}
