package org.zstack.aio.server.db;

import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.CannotCreateTransactionException;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

/**
 * What kind of database failure an exception is, read from the whole cause chain (Spring, Hibernate and the driver
 * each wrap it). Galera reports a certification failure or a brute-force abort as a deadlock (SQLState 40001,
 * error 1213): the transaction was rolled back, so running the whole unit of work again is always safe.
 */
public enum DatabaseFailure {
    /** deadlock, certification failure, lock wait timeout: rolled back, nothing committed */
    CONFLICT,
    /** no connection could be had: nothing was sent */
    NOT_CONNECTED,
    /** the connection broke during the work: a commit may or may not have happened */
    CONNECTION_LOST,
    /** a unique key already taken (by a concurrent insert of the same row, or by a duplicate the caller sent) */
    DUPLICATE,
    /** anything else: not a database failure this layer knows how to retry */
    OTHER;

    private static final int ER_DUP_ENTRY = 1062;
    private static final int ER_LOCK_WAIT_TIMEOUT = 1205;
    private static final int ER_LOCK_DEADLOCK = 1213;
    /** Galera: "WSREP has not yet prepared node for application use" (a node leaving or not yet Synced) */
    private static final int ER_UNKNOWN_COM_ERROR = 1047;
    private static final int ER_SERVER_SHUTDOWN = 1053;

    public static DatabaseFailure of(Throwable e) {
        DatabaseFailure found = OTHER;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            DatabaseFailure f = one(t);
            if (f == CONFLICT) return CONFLICT;               // the most specific answer the chain gives
            if (f != OTHER && found == OTHER) found = f;
        }
        return found;
    }

    private static DatabaseFailure one(Throwable t) {
        if (t instanceof SQLException s) {
            String state = s.getSQLState() == null ? "" : s.getSQLState();
            int code = s.getErrorCode();
            if (state.equals("40001") || code == ER_LOCK_DEADLOCK || code == ER_LOCK_WAIT_TIMEOUT) return CONFLICT;
            if (state.startsWith("08") || code == ER_UNKNOWN_COM_ERROR || code == ER_SERVER_SHUTDOWN
                    || t instanceof SQLNonTransientConnectionException || t instanceof SQLTransientConnectionException) {
                return CONNECTION_LOST;
            }
            if (code == ER_DUP_ENTRY || s instanceof java.sql.SQLIntegrityConstraintViolationException
                    && state.equals("23505")) return DUPLICATE;
            return OTHER;
        }
        if (t instanceof ConcurrencyFailureException) return CONFLICT;
        if (t instanceof CannotCreateTransactionException) return NOT_CONNECTED;
        if (t instanceof DataAccessResourceFailureException) return CONNECTION_LOST;
        return OTHER;
    }

    /** A failure the database, not the request, caused (a duplicate is the request's or a race's, not this). */
    public boolean isDatabaseFailure() {
        return this != OTHER && this != DUPLICATE;
    }
}
