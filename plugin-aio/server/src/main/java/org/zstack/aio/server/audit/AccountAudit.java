package org.zstack.aio.server.audit;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.zstack.aio.server.account.AccountEvents;

/** Audits what the account feature publishes (it does not know the audit trail, so the two form no cycle). */
@Component
class AccountAudit {

    private final AuditService audit;

    AccountAudit(AuditService audit) {
        this.audit = audit;
    }

    @EventListener
    void loginRefused(AccountEvents.LoginRefused e) {
        audit.recordFailedLogin(e.attemptedName(), e.error());
    }

    @EventListener
    void accountCreated(AccountEvents.AccountCreated e) {
        audit.record(e.caller(), new AuditEntry("CreateAccount", "AccountVO", e.accountUuid(), e.name(), null, e.type()));
    }
}
