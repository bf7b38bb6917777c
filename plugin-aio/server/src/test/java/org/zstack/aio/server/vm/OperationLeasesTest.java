package org.zstack.aio.server.vm;

import org.junit.jupiter.api.Test;
import org.mockito.Mockito;
import org.springframework.dao.CannotAcquireLockException;
import org.zstack.aio.db.DatabaseSettings;
import org.zstack.aio.server.db.PoolHome;
import org.zstack.aio.server.db.UnitOfWork;

import java.sql.SQLTransactionRollbackException;
import java.time.LocalDateTime;
import java.util.Collection;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyCollection;

/** The renewal of this node's leases: by token, and run again when Galera refuses it (seen in GaleraClusterTest's logs). */
class OperationLeasesTest {

    final VmStateRepository states = Mockito.mock(VmStateRepository.class);
    final UnitOfWork work = new UnitOfWork(4, 1, 2, new PoolHome(null, new DatabaseSettings("jdbc:h2:mem:x", "sa", "")));
    final OperationLeases leases = new OperationLeases(states, work, true);

    @Test
    void aRenewalRefusedByACertificationConflictIsRunAgainAtOnce() {
        OperationLeases.Operation a = leases.begin("vm-a");
        OperationLeases.Operation b = leases.begin("vm-a");   // a second request for the same VM on this node
        Mockito.when(states.renewLeases(anyCollection(), anyCollection(), any()))
                .thenThrow(new CannotAcquireLockException("could not execute statement", new SQLTransactionRollbackException(
                        "Deadlock found when trying to get lock; try restarting transaction", "40001", 1213)))
                .thenReturn(1);
        LocalDateTime before = LocalDateTime.now();

        leases.renew();

        @SuppressWarnings("unchecked")
        org.mockito.ArgumentCaptor<Collection<String>> vms = org.mockito.ArgumentCaptor.forClass(Collection.class);
        @SuppressWarnings("unchecked")
        org.mockito.ArgumentCaptor<Collection<String>> tokens = org.mockito.ArgumentCaptor.forClass(Collection.class);
        org.mockito.ArgumentCaptor<LocalDateTime> until = org.mockito.ArgumentCaptor.forClass(LocalDateTime.class);
        Mockito.verify(states, Mockito.times(2)).renewLeases(vms.capture(), tokens.capture(), until.capture());
        assertThat(vms.getValue()).containsExactly("vm-a");
        assertThat(tokens.getValue()).containsExactlyInAnyOrder(a.token(), b.token());
        assertThat(until.getValue()).isAfterOrEqualTo(before.plus(OperationLeases.LEASE));
        assertThat(a.token()).matches("[0-9a-f]{32}").isNotEqualTo(b.token());
    }

    @Test
    void endingOneOperationKeepsTheOtherOnTheSameVmRenewed() {
        OperationLeases.Operation refused = leases.begin("vm-a");
        OperationLeases.Operation running = leases.begin("vm-a");
        leases.end(refused);
        assertThat(leases.inFlight("vm-a")).isTrue();

        leases.renew();

        Mockito.verify(states).renewLeases(Mockito.eq(java.util.Set.of("vm-a")), Mockito.eq(List.of(running.token())),
                Mockito.<LocalDateTime>any());
        leases.end(running);
        assertThat(leases.inFlight("vm-a")).isFalse();
    }
}
