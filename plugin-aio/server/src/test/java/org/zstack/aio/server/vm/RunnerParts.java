package org.zstack.aio.server.vm;

import org.mockito.Mockito;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.transaction.support.SimpleTransactionStatus;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;
import org.zstack.aio.db.DatabaseSettings;
import org.zstack.aio.server.audit.AuditService;
import org.zstack.aio.server.db.PoolHome;
import org.zstack.aio.server.db.UnitOfWork;

import java.sql.SQLTransactionRollbackException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.mockito.ArgumentMatchers.any;

/**
 * A {@link VmOperationRunner} on mocked parts (the state repository, the audit, the event publisher) with the real
 * {@link UnitOfWork} retry and real {@link OperationLeases}; a transaction runs its callback, and can be made to fail
 * with a Galera certification conflict the first {@code n} times, as a unit of work then sees it.
 */
final class RunnerParts {

    final VmStateRepository states = Mockito.mock(VmStateRepository.class);
    final UnitOfWork work = new UnitOfWork(4, 1, 2, new PoolHome(null, new DatabaseSettings("jdbc:h2:mem:x", "sa", "")));
    final OperationLeases leases = new OperationLeases(states, work, true);
    final TransactionTemplate tx = Mockito.mock(TransactionTemplate.class);
    final AuditService audit = Mockito.mock(AuditService.class);
    final ApplicationEventPublisher events = Mockito.mock(ApplicationEventPublisher.class);
    final VmOperationRunner runner = new VmOperationRunner(leases, states, work, tx, audit, events);
    /** how many more transactions fail with a conflict after running their callback (its work then rolled back) */
    final AtomicInteger conflicts = new AtomicInteger();
    final AtomicInteger transactions = new AtomicInteger();

    RunnerParts() {
        Mockito.when(tx.execute(any())).thenAnswer(inv -> {
            transactions.incrementAndGet();
            Object out = inv.<TransactionCallback<?>>getArgument(0).doInTransaction(new SimpleTransactionStatus());
            if (conflicts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) throw conflict();
            return out;
        });
        Mockito.doAnswer(inv -> {
            transactions.incrementAndGet();
            inv.<java.util.function.Consumer<Object>>getArgument(0).accept(new SimpleTransactionStatus());
            return null;
        }).when(tx).executeWithoutResult(any());
    }

    static CannotAcquireLockException conflict() {
        return new CannotAcquireLockException("could not execute statement", new SQLTransactionRollbackException(
                "Deadlock found when trying to get lock; try restarting transaction", "40001", 1213));
    }
}
