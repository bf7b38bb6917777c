package org.zstack.aio.server.quota;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.account.AccountRepository;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.AccountVO;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.api.Uuids;
import org.zstack.aio.server.query.QueryExecutor;
import org.zstack.aio.server.query.QueryReply;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.query.QuerySpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-account limits with ZStack's quota names: {@code volume.capacity} (bytes of all the account's volumes) and
 * {@code vm.num} (its VMs). The admin sets them per account (UpdateQuota); an account without its own row has the
 * defaults (aio.quota.volume-capacity, aio.quota.vm-num). Administrators have no quota.
 */
@Service
public class QuotaService {

    public static final String VOLUME_CAPACITY = "volume.capacity";
    public static final String VM_NUM = "vm.num";
    /** The largest value accepted: a quota above it means no limit in practice. */
    static final long MAX_VALUE = 1L << 62;

    private final QuotaRepository quotas;
    private final AccountRepository accounts;
    private final Map<String, Long> defaults;
    private final QueryReply query;
    private static final QuerySpec<AccountVO> QUERY = QuerySpec.of(AccountVO.class, QuotaInventory.class, "createDate", "uuid")
            .hiding("passwordHash");

    public QuotaService(QuotaRepository quotas, AccountRepository accounts, QueryReply query,
                        @Value("${aio.quota.volume-capacity:10995116277760}") long volumeCapacity,
                        @Value("${aio.quota.vm-num:100}") long vmNum) {
        this.quotas = quotas;
        this.accounts = accounts;
        this.query = query;
        this.defaults = Map.of(VOLUME_CAPACITY, volumeCapacity, VM_NUM, vmNum);
    }

    public record QuotaInventory(String identityUuid, String name, long value, long used) {
    }

    /** Refuses (409) a new volume of this size that would take the caller's volumes past volume.capacity. */
    public void requireVolumeRoom(Caller caller, long size) {
        if (caller.admin()) return;
        long limit = limits(caller.accountUuid()).get(VOLUME_CAPACITY);
        long used = quotas.volumeBytesOf(caller.accountUuid());
        if (used + size > limit) {
            throw new ApiException(ErrorCode.QUOTA_EXCEEDED, "a " + size + "-byte volume would take account "
                    + caller.accountName() + " to " + (used + size) + " bytes, over its quota " + VOLUME_CAPACITY + " of "
                    + limit + ".", "Delete volumes, create a smaller one, or ask an administrator to raise the quota.");
        }
    }

    /** Refuses (409) a new VM past the caller's vm.num. */
    public void requireVmRoom(Caller caller) {
        if (caller.admin()) return;
        long limit = limits(caller.accountUuid()).get(VM_NUM);
        long used = quotas.vmCountOf(caller.accountUuid());
        if (used + 1 > limit) {
            throw new ApiException(ErrorCode.QUOTA_EXCEEDED, "account " + caller.accountName() + " has " + used
                    + " VMs, its quota " + VM_NUM + ".", "Delete a VM, or ask an administrator to raise the quota.");
        }
    }

    /**
     * GET /v1/accounts/quotas: an account's limits and use (its own, or any for an admin), through the query layer:
     * quotas are not rows, so the query selects the account (conditions on its fields) and each selected account is
     * answered with its quotas.
     */
    @Transactional(readOnly = true)
    public Map<String, Object> query(Caller caller, String identityUuid, QueryRequest q) {
        String account = identityUuid == null ? caller.accountUuid() : requireAccount(identityUuid);
        if (!caller.admin() && !account.equals(caller.accountUuid())) {
            throw ApiException.forbidden("you may only read your own account's quotas.");
        }
        QueryExecutor.Scope<AccountVO> theAccount = (cb, cq, root) -> cb.equal(root.get("uuid"), account);
        Map<String, Object> out = new LinkedHashMap<>(query.answer(QUERY, q, theAccount,
                accounts -> accounts.stream().flatMap(a -> quotasOf(a.getUuid()).stream()).toList()));
        // the query counted accounts; the answer lists each one's quotas, so its total is theirs
        if (out.get("total") instanceof Long accounts) out.put("total", accounts * defaults.size());
        return out;
    }

    private List<QuotaInventory> quotasOf(String account) {
        Map<String, Long> limits = limits(account);
        List<QuotaInventory> out = new ArrayList<>();
        out.add(new QuotaInventory(account, VM_NUM, limits.get(VM_NUM), quotas.vmCountOf(account)));
        out.add(new QuotaInventory(account, VOLUME_CAPACITY, limits.get(VOLUME_CAPACITY), quotas.volumeBytesOf(account)));
        return out;
    }

    /** PUT /v1/accounts/quotas/actions (admin only). */
    @Transactional
    public QuotaInventory update(Caller caller, String identityUuid, String name, long value) {
        AccountService.requireAdmin(caller, "change quotas");
        if (!defaults.containsKey(name)) {
            throw ApiException.badRequest("'" + Uuids.abbreviate(name) + "' is not a quota.",
                    "Use " + VM_NUM + " or " + VOLUME_CAPACITY + ".");
        }
        String account = requireAccount(identityUuid);
        QuotaVO row = quotas.findByIdentityUuidOrderById(account).stream().filter(q -> q.getName().equals(name))
                .findFirst().orElse(null);
        if (row == null) quotas.save(new QuotaVO(name, account, value));
        else row.setValue(value);
        return new QuotaInventory(account, name, value,
                VM_NUM.equals(name) ? quotas.vmCountOf(account) : quotas.volumeBytesOf(account));
    }

    private Map<String, Long> limits(String account) {
        Map<String, Long> out = new LinkedHashMap<>(defaults);
        List<QuotaVO> rows = new ArrayList<>(quotas.findByIdentityUuidOrderById(account));
        java.util.Collections.reverse(rows); // the first row of a name wins
        for (QuotaVO q : rows) if (out.containsKey(q.getName())) out.put(q.getName(), q.getValue());
        return out;
    }

    private String requireAccount(String uuid) {
        Uuids.require(uuid, "account");
        if (!accounts.existsById(uuid)) {
            throw new ApiException(ErrorCode.NOT_FOUND, "no account with uuid " + uuid + ".",
                    "Check the uuid; the admin sees each account's uuid when creating it.");
        }
        return uuid;
    }
}
