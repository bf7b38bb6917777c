package org.zstack.aio.server.account;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.Reply;

import java.util.Map;

@RestController
public class AccountController {

    private final AccountService accounts;

    public AccountController(AccountService accounts) {
        this.accounts = accounts;
    }

    /** A session as login returns it. */
    public record SessionInventory(String uuid, String accountUuid, String expiredDate) {
    }

    /** A new tenant account. */
    public record AccountInventory(String uuid, String name, String type) {
    }

    @Operation(operationId = "LogInByAccount")
    @PutMapping("/v1/accounts/login")
    public Reply.Inventory<SessionInventory> login(@RequestBody JsonNode body, HttpServletRequest request) {
        JsonNode p = Bodies.action(body, "logInByAccount");
        AccountService.LoggedIn s = accounts.login(Bodies.optText(p, "accountName"), Bodies.optText(p, "password"),
                request.getRemoteAddr());
        return Reply.of(new SessionInventory(s.token(), s.accountUuid(), s.expiredDate().toString()));
    }

    @Operation(operationId = "LogOut")
    @DeleteMapping("/v1/accounts/sessions/{sessionUuid}")
    public Map<String, String> logout(Caller caller, @PathVariable String sessionUuid) {
        accounts.logout(caller, sessionUuid);
        return Reply.empty();
    }

    @Operation(operationId = "CreateAccount")
    @PostMapping("/v1/accounts")
    @ResponseStatus(HttpStatus.CREATED)
    public Reply.Inventory<AccountInventory> create(Caller caller, @RequestBody JsonNode body) {
        JsonNode p = Bodies.action(body, "params");
        AccountVO a = accounts.createTenant(caller, Bodies.optText(p, "name"), Bodies.optText(p, "password"));
        return Reply.of(new AccountInventory(a.getUuid(), a.getName(), a.getType()));
    }
}
