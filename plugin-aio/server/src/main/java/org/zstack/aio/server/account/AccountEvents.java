package org.zstack.aio.server.account;

/**
 * What the account feature tells others (the audit trail) without depending on them: published synchronously, so a
 * listener runs in the publisher's thread and transaction.
 */
public final class AccountEvents {

    private AccountEvents() {
    }

    /** A login was refused; {@code attemptedName} as sent (never the password). */
    public record LoginRefused(String attemptedName, String error) {
    }

    /** An account was created by {@code caller}, inside the transaction that created it. */
    public record AccountCreated(Caller caller, String accountUuid, String name, String type) {
    }
}
