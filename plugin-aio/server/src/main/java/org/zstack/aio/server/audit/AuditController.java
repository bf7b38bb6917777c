package org.zstack.aio.server.audit;

import io.swagger.v3.oas.annotations.Operation;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.query.QueryRequest;

import java.time.ZoneOffset;
import java.util.Map;

@RestController
public class AuditController {

    private final AuditService audits;

    public AuditController(AuditService audits) {
        this.audits = audits;
    }

    /** docs/contract.md "Audit": the fields as listed, plus resourceName (what a config or resource is called). */
    public record AuditInventory(String uuid, String accountUuid, String accountName, String action, String resourceType,
                                 String resourceUuid, String resourceName, String oldValue, String newValue,
                                 boolean success, String error, String clientIp, String createDate) {
        static AuditInventory of(AuditVO a) {
            return new AuditInventory(a.getUuid(), a.getAccountUuid(), a.getAccountName(), a.getAction(), a.getResourceType(),
                    a.getResourceUuid(), a.getResourceName(), a.getOldValue(), a.getNewValue(), a.isSuccess(), a.getError(),
                    a.getClientIp(), a.getCreateDate().toInstant(ZoneOffset.UTC).toString());
        }
    }

    @Operation(operationId = "QueryAudit")
    @GetMapping("/v1/audits")
    public Map<String, Object> list(Caller caller, QueryRequest query) {
        return audits.query(caller, query);
    }
}
