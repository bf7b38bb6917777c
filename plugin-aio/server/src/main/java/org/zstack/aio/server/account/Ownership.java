package org.zstack.aio.server.account;

import org.zstack.aio.server.query.QueryExecutor;

/** The usual rights as a query scope: an admin sees every row, a tenant the rows whose accountUuid is its own. */
public final class Ownership {

    private Ownership() {
    }

    public static <E> QueryExecutor.Scope<E> scope(Caller caller) {
        if (caller.admin()) return QueryExecutor.Scope.all();
        return QueryExecutor.Scope.account(caller.accountUuid());
    }
}
