package org.zstack.aio.server.db;

import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.zstack.aio.db.DatabaseSettings;

import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTransactionRollbackException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The retry policies, with the exceptions MariaDB Connector/J and Spring really raise (shapes copied from a Galera run). */
class UnitOfWorkTest {

    static final RuntimeException CERTIFICATION_FAILURE = new CannotAcquireLockException("could not execute statement",
            new SQLTransactionRollbackException("Deadlock found when trying to get lock; try restarting transaction", "40001", 1213));
    static final RuntimeException CONNECTION_LOST = new DataAccessResourceFailureException("could not execute statement",
            new SQLNonTransientConnectionException("(conn=12) Socket error", "08000", -1));
    static final RuntimeException NO_CONNECTION = new CannotCreateTransactionException("Could not open JPA EntityManager",
            new java.sql.SQLTransientConnectionException("HikariPool-1 - Connection is not available", "08001"));
    static final RuntimeException DUPLICATE = new DataIntegrityViolationException("could not execute batch",
            new SQLIntegrityConstraintViolationException("Duplicate entry 'admin' for key 'ukAccountVOName'", "23000", 1062));

    final AtomicInteger evictions = new AtomicInteger();
    final UnitOfWork work = new UnitOfWork(4, 1, 2, new PoolHome(null, new DatabaseSettings("jdbc:h2:mem:x", "sa", "")) {
        @Override
        public void moveAway() {
            evictions.incrementAndGet();
        }
    });

    @Test
    void classifiesByTheWholeCauseChain() {
        assertThat(DatabaseFailure.of(CERTIFICATION_FAILURE)).isEqualTo(DatabaseFailure.CONFLICT);
        assertThat(DatabaseFailure.of(new RuntimeException(new SQLTransactionRollbackException("x", "40001", 1213))))
                .as("untranslated, wrapped").isEqualTo(DatabaseFailure.CONFLICT);
        assertThat(DatabaseFailure.of(CONNECTION_LOST)).isEqualTo(DatabaseFailure.CONNECTION_LOST);
        assertThat(DatabaseFailure.of(new RuntimeException(new java.sql.SQLException("WSREP has not yet prepared node for application use", "08S01", 1047))))
                .isEqualTo(DatabaseFailure.CONNECTION_LOST);
        assertThat(DatabaseFailure.of(NO_CONNECTION)).isEqualTo(DatabaseFailure.NOT_CONNECTED);
        assertThat(DatabaseFailure.of(DUPLICATE)).isEqualTo(DatabaseFailure.DUPLICATE);
        assertThat(DatabaseFailure.of(new RuntimeException(new SQLSyntaxErrorException("bad", "42000", 1064))))
                .isEqualTo(DatabaseFailure.OTHER);
        assertThat(DatabaseFailure.of(new IllegalStateException("no"))).isEqualTo(DatabaseFailure.OTHER);
    }

    @Test
    void aConflictRunsTheWholeUnitAgainUntilItCommits() {
        AtomicInteger runs = new AtomicInteger();
        String r = work.idempotent(() -> {
            if (runs.incrementAndGet() < 3) throw CERTIFICATION_FAILURE;
            return "done";
        });
        assertThat(r).isEqualTo("done");
        assertThat(runs).hasValue(3);
        assertThat(evictions).as("a conflict leaves the pool where it is").hasValue(0);
    }

    @Test
    void aLostConnectionIsRetriedForIdempotentWorkAndMovesThePool() {
        AtomicInteger runs = new AtomicInteger();
        work.idempotent(() -> {
            if (runs.incrementAndGet() == 1) throw CONNECTION_LOST;
        });
        assertThat(runs).hasValue(2);
        assertThat(evictions).hasValue(1);
    }

    @Test
    void boundedTheLastFailureComesOut() {
        AtomicInteger runs = new AtomicInteger();
        assertThatThrownBy(() -> work.idempotent(() -> {
            runs.incrementAndGet();
            throw CERTIFICATION_FAILURE;
        })).isSameAs(CERTIFICATION_FAILURE);
        assertThat(runs).hasValue(4);
    }

    @Test
    void otherFailuresAndDuplicatesAreNotRetried() {
        AtomicInteger runs = new AtomicInteger();
        assertThatThrownBy(() -> work.idempotent(() -> {
            runs.incrementAndGet();
            throw DUPLICATE;
        })).isSameAs(DUPLICATE);
        assertThat(runs).hasValue(1);
    }

    @Test
    void notIdempotentWorkIsRetriedOnlyWhenNothingCanHaveCommitted() throws Throwable {
        for (RuntimeException retried : new RuntimeException[]{CERTIFICATION_FAILURE, NO_CONNECTION}) {
            AtomicInteger runs = new AtomicInteger();
            String r = work.conflictTemplate().execute(ctx -> {
                if (runs.incrementAndGet() == 1) throw retried;
                return "ok";
            });
            assertThat(r).isEqualTo("ok");
            assertThat(runs).hasValue(2);
        }
        AtomicInteger runs = new AtomicInteger();
        assertThatThrownBy(() -> work.conflictTemplate().execute(ctx -> {
            runs.incrementAndGet();
            throw CONNECTION_LOST;
        })).isSameAs(CONNECTION_LOST);
        assertThat(runs).as("a create whose connection broke may have committed: not run again").hasValue(1);
    }

    @Test
    void ensureRetriesADuplicateOnceTheOtherNodesRowIsThere() throws Throwable {
        AtomicInteger runs = new AtomicInteger();
        boolean created = work.ensureTemplate().execute(ctx -> {
            if (runs.incrementAndGet() == 1) throw DUPLICATE;
            return false;   // second run: the row the other node inserted is found
        });
        assertThat(created).isFalse();
        assertThat(runs).hasValue(2);
    }

    @Test
    void insideARunningTransactionTheOutermostUnitRetriesNotThisCall() {
        TransactionSynchronizationManager.setActualTransactionActive(true);
        try {
            AtomicInteger runs = new AtomicInteger();
            assertThatThrownBy(() -> work.idempotent(() -> {
                runs.incrementAndGet();
                throw CERTIFICATION_FAILURE;
            })).isSameAs(CERTIFICATION_FAILURE);
            assertThat(runs).hasValue(1);
        } finally {
            TransactionSynchronizationManager.setActualTransactionActive(false);
        }
    }

    @Test
    void onlyMultiHostMariaDbUrlsGetAPoolHomeCheck() {
        assertThat(PoolHome.multiHost("jdbc:mariadb:sequential://a:1,b:2,c:3/zstack")).isTrue();
        assertThat(PoolHome.multiHost("jdbc:mariadb://a:3306/zstack")).isFalse();
        assertThat(PoolHome.multiHost("jdbc:mariadb://a:3306/zstack?x=1,2")).isFalse();
        assertThat(PoolHome.multiHost("jdbc:h2:file:/tmp/x")).isFalse();
    }
}
