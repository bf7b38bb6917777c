package org.zstack.aio.server.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.Reply;
import org.zstack.aio.server.query.QueryRequest;

import java.util.Map;

/** ZStack's quota calls: QueryQuota and UpdateQuota. */
@RestController
public class QuotaController {

    private final QuotaService quotas;

    public QuotaController(QuotaService quotas) {
        this.quotas = quotas;
    }

    @Operation(operationId = "QueryQuota")
    @GetMapping("/v1/accounts/quotas")
    public Map<String, Object> query(Caller caller, QueryRequest query,
                                     @RequestParam(name = "identityUuid", required = false) String identityUuid) {
        return quotas.query(caller, identityUuid, query);
    }

    @Operation(operationId = "UpdateQuota")
    @PutMapping("/v1/accounts/quotas/actions")
    public Reply.Inventory<QuotaService.QuotaInventory> update(Caller caller, @RequestBody JsonNode body) {
        JsonNode p = Bodies.action(body, "updateQuota");
        return Reply.of(quotas.update(caller, Bodies.text(p, "identityUuid"), Bodies.text(p, "name"),
                Bodies.number(p, "value", 0, QuotaService.MAX_VALUE)));
    }
}
