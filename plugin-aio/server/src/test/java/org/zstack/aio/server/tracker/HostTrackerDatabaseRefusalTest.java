package org.zstack.aio.server.tracker;

import org.junit.jupiter.api.Test;
import org.springframework.core.env.Environment;
import org.springframework.transaction.CannotCreateTransactionException;
import org.zstack.aio.server.agent.AgentClient;
import org.zstack.aio.server.agent.AgentEndpoints;
import org.zstack.aio.server.api.Readiness;
import org.zstack.aio.server.config.GlobalConfigRepository;
import org.zstack.aio.server.host.HostService;
import org.zstack.aio.server.metrics.IoModeMetrics;

import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * A database that refuses to open a transaction (Spring's CannotCreateTransactionException is a TransactionException,
 * not a DataAccessException) must not kill a host-tracker thread: the sync waits for the next round, logged.
 */
class HostTrackerDatabaseRefusalTest {

    @Test
    void aRefusedTransactionIsLoggedAndTheTrackerThreadLives() throws Exception {
        HostTrackingRepository hosts = mock(HostTrackingRepository.class);
        when(hosts.findById("h1")).thenThrow(new CannotCreateTransactionException("Could not open JPA EntityManager for transaction",
                new SQLTransientConnectionException("Connection is not available")));
        Readiness readiness = mock(Readiness.class);
        when(readiness.ready()).thenReturn(true);
        HostTracker tracker = new HostTracker(hosts, mock(GlobalConfigRepository.class), mock(AgentClient.class),
                mock(HostService.class), mock(VmTracker.class), readiness, mock(Environment.class), "", true,
                mock(IoModeMetrics.class), mock(AgentEndpoints.class));
        List<Throwable> escaped = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> escaped.add(e));
        try {
            for (int i = 0; i < 3; i++) {
                tracker.trackSoon("h1");
                await().until(() -> tracker.busyHosts().isEmpty());
            }
            tracker.destroy(); // drains the pool: every task has finished, or escaped, by now
            verify(hosts, times(3)).findById("h1");
            assertThat(escaped).as("exceptions that killed a tracker thread").isEmpty();
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }
}
