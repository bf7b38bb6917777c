package org.zstack.aio.server.api;

import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.http.ResponseEntity;
import org.springframework.orm.jpa.JpaSystemException;

import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransactionRollbackException;

import static org.assertj.core.api.Assertions.assertThat;

/** What a database failure that outlived its retries answers: 409 or 503 with the contract's body, never 500. */
class DatabaseFailureAnswerTest {

    final ApiExceptionHandler handler = new ApiExceptionHandler();

    @Test
    void aConflictThatOutlivedItsRetriesIs409() {
        ResponseEntity<ErrorBody> r = handler.database(new CannotAcquireLockException("x",
                new SQLTransactionRollbackException("Deadlock found when trying to get lock; try restarting transaction", "40001", 1213)));
        assertThat(r.getStatusCode().value()).isEqualTo(409);
        assertThat(r.getBody().error().code()).isEqualTo("AIO.1300");
        assertThat(r.getBody().error().details()).contains("Send the request again");
    }

    @Test
    void anUntranslatedDriverFailureIsNot500() {
        // Hibernate wraps some driver exceptions in JpaSystemException, which the catch-all handler receives
        ResponseEntity<ErrorBody> lost = handler.internal(new JpaSystemException(new RuntimeException(
                new SQLNonTransientConnectionException("(conn=7) Connection reset", "08000"))));
        assertThat(lost.getStatusCode().value()).isEqualTo(503);
        assertThat(lost.getBody().error().code()).isEqualTo("AIO.1501");
        ResponseEntity<ErrorBody> conflict = handler.internal(new JpaSystemException(new RuntimeException(
                new SQLTransactionRollbackException("Deadlock found", "40001", 1213))));
        assertThat(conflict.getStatusCode().value()).isEqualTo(409);
        ResponseEntity<ErrorBody> bug = handler.internal(new IllegalStateException("a bug"));
        assertThat(bug.getStatusCode().value()).as("what is not a database failure stays 500").isEqualTo(500);
    }
}
