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

import java.util.Map;

@RestController
public class AccountController {

    private final AccountService accounts;

    public AccountController(AccountService accounts) {
        this.accounts = accounts;
    }

    @Operation(operationId = "LogInByAccount")
    @PutMapping("/v1/accounts/login")
    public Map<String, Object> login(@RequestBody JsonNode body, HttpServletRequest request) {
        JsonNode p = Bodies.action(body, "logInByAccount");
        AccountService.LoggedIn s = accounts.login(Bodies.optText(p, "accountName"), Bodies.optText(p, "password"),
                request.getRemoteAddr());
        return Map.of("inventory", Map.of("uuid", s.token(), "accountUuid", s.accountUuid(),
                "expiredDate", s.expiredDate().toString()));
    }

    @Operation(operationId = "LogOut")
    @DeleteMapping("/v1/accounts/sessions/{sessionUuid}")
    public Map<String, Object> logout(Caller caller, @PathVariable String sessionUuid) {
        accounts.logout(caller, sessionUuid);
        return Map.of();
    }

    @Operation(operationId = "CreateAccount")
    @PostMapping("/v1/accounts")
    @ResponseStatus(HttpStatus.CREATED)
    public Map<String, Object> create(Caller caller, @RequestBody JsonNode body) {
        JsonNode p = Bodies.action(body, "params");
        AccountVO a = accounts.createTenant(caller, Bodies.optText(p, "name"), Bodies.optText(p, "password"));
        return Map.of("inventory", Map.of("uuid", a.getUuid(), "name", a.getName(), "type", a.getType()));
    }
}
