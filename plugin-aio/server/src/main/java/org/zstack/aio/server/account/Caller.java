package org.zstack.aio.server.account;

/** Who is calling: the account behind the request's session. */
public record Caller(String accountUuid, String accountName, boolean admin, String sessionUuid) {

    /** Admins own everything; a tenant owns what carries its account uuid. */
    public boolean owns(String ownerAccountUuid) {
        return admin || accountUuid.equals(ownerAccountUuid);
    }
}
