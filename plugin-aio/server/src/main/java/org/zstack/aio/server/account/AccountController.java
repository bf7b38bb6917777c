package org.zstack.aio.server.account;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.Uuids;
import org.zstack.aio.server.api.ZStackInventory;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.api.Reply;

import java.time.LocalDateTime;
import java.util.Map;

@RestController
public class AccountController {

    private final AccountService accounts;

    public AccountController(AccountService accounts) {
        this.accounts = accounts;
    }

    @ZStackInventory("org.zstack.header.identity.SessionInventory")
    public record SessionInventory(String uuid, String accountUuid, LocalDateTime expiredDate, LocalDateTime createDate) {
    }

    @ZStackInventory("org.zstack.header.identity.AccountInventory")
    public record AccountInventory(String uuid, String name, String type, LocalDateTime createDate,
                                   LocalDateTime lastOpDate) {

        static AccountInventory of(AccountVO a) {
            return new AccountInventory(a.getUuid(), a.getName(), a.getType(), a.getCreateDate(), a.getLastOpDate());
        }
    }

    @Operation(operationId = "LogInByAccount")
    @PutMapping("/v1/accounts/login")
    public Reply.Inventory<SessionInventory> login(@RequestBody JsonNode body, HttpServletRequest request) {
        JsonNode p = Bodies.action(body, "logInByAccount");
        AccountService.LoggedIn s = accounts.login(Bodies.optText(p, "accountName"), Bodies.optText(p, "password"),
                request.getRemoteAddr());
        return Reply.of(new SessionInventory(s.token(), s.accountUuid(), s.expiredDate(), s.createDate()));
    }

    /** The session uuid in the path is the credential: ZStack's LogOutAction sends no Authorization header. */
    @Operation(operationId = "LogOut")
    @DeleteMapping("/v1/accounts/sessions/{sessionUuid}")
    public Map<String, String> logout(@PathVariable String sessionUuid) {
        accounts.logout(sessionUuid);
        return Reply.empty();
    }

    /** 200 with the inventory, as ZStack answers (its SDK refuses a 201). */
    @Operation(operationId = "CreateAccount")
    @PostMapping("/v1/accounts")
    public Reply.Inventory<AccountInventory> create(Caller caller, @RequestBody JsonNode body) {
        JsonNode p = Bodies.action(body, "params");
        String type = Bodies.optText(p, "type");
        if (type != null && !type.equals(AccountVO.NORMAL)) {
            throw ApiException.badRequest("plugin-aio creates tenant accounts only, not '" + Uuids.abbreviate(type) + "'.",
                    "Leave \"type\" out or send \"Normal\"; there is one administrator, admin.");
        }
        AccountVO a = accounts.createTenant(caller, Bodies.optText(p, "name"), Bodies.optText(p, "password"));
        return Reply.of(AccountInventory.of(a));
    }

    @Operation(operationId = "QueryAccount")
    @GetMapping("/v1/accounts")
    public Map<String, Object> list(Caller caller, QueryRequest query) {
        return accounts.query(caller, query, rows -> rows.stream().map(AccountInventory::of).toList());
    }
}
