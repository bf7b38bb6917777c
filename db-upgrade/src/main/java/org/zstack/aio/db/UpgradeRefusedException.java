package org.zstack.aio.db;

/**
 * The schema upgrade refused to run (or to let the server boot): the database does not match this build's
 * migrations, holds tables that are not the platform's, or cannot be reached. The message is one or two
 * sentences a person can act on; Flyway's own details follow it.
 */
public class UpgradeRefusedException extends RuntimeException {

    public UpgradeRefusedException(String message) {
        super(message);
    }

    public UpgradeRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
