package org.zstack.aio.server.audit;

import jakarta.persistence.EntityManager;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.query.QueryExecutor;
import org.zstack.aio.server.query.QueryReply;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.query.QuerySpec;
import org.zstack.aio.server.api.Uuids;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * The audit trail. A change is recorded inside the transaction that makes it ({@link Propagation#MANDATORY}: calling
 * it outside one is a bug, not a silent separate write), so a rolled-back change leaves no audit row and a committed
 * one always has its row. Only a failed login is recorded on its own, since it changes nothing else.
 */
@Service
public class AuditService {

    static final int MAX_TEXT = 255;

    private static final QuerySpec<AuditVO> QUERY = new QuerySpec<>(AuditVO.class, AuditController.AuditInventory.class,
            java.util.Set.of(), List.of(new QueryRequest.Sort("createDate", false), new QueryRequest.Sort("uuid", false)));

    private final EntityManager em;
    private final TransactionTemplate ownTransaction;
    private final QueryReply query;

    public AuditService(EntityManager em, PlatformTransactionManager txManager, QueryReply query) {
        this.em = em;
        this.query = query;
        this.ownTransaction = new TransactionTemplate(txManager);
        this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    /** Records a successful change by {@code caller}, in the caller's transaction. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void record(Caller caller, AuditEntry e) {
        em.persist(new AuditVO(Uuids.random(), caller.accountUuid(), caller.accountName(), e, true, null, clientIp(), now()));
    }

    /** A failed login: the attempted account name (cut to 255 characters), never the password. */
    public void recordFailedLogin(String attemptedName, String error) {
        String name = attemptedName == null ? null
                : attemptedName.length() > MAX_TEXT ? attemptedName.substring(0, MAX_TEXT) : attemptedName;
        AuditEntry e = new AuditEntry("LogInByAccount", "AccountVO", null, name, null, null);
        String ip = clientIp();
        ownTransaction.executeWithoutResult(s -> em.persist(new AuditVO(Uuids.random(), null, name, e, false, error, ip, now())));
    }

    /** GET /v1/audits with ZStack's query parameters (q, limit, start, sort, count, fields); newest first by default. */
    @Transactional(readOnly = true)
    public Map<String, Object> query(Caller caller, QueryRequest q) {
        AccountService.requireAdmin(caller, "read the audit trail");
        return query.answer(QUERY, q, QueryExecutor.Scope.all(),
                page -> page.stream().map(AuditController.AuditInventory::of).toList());
    }

    private static LocalDateTime now() {
        return LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS); // DATETIME(3)
    }

    /** Where the request came from: the peer address (a forwarded-for header is not trusted). */
    private static String clientIp() {
        if (RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes a) {
            HttpServletRequest r = a.getRequest();
            return r.getRemoteAddr();
        }
        return null;
    }
}
