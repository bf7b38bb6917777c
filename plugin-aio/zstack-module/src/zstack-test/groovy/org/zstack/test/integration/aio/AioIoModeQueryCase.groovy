package org.zstack.test.integration.aio

import org.zstack.sdk.AccountInventory
import org.zstack.sdk.DiskOfferingInventory
import org.zstack.sdk.SessionInventory
import org.zstack.sdk.VolumeInventory
import org.zstack.utils.gson.JSONObjectUtil

/**
 * The stored decisions through ZStack's query API (APIQueryVolumeIoModeDecisionMsg, the module's SDK action
 * QueryVolumeIoModeDecisionAction): conditions, limit/start, count, replyWithCount, sortBy/sortDirection, fields; a
 * tenant sees only the decisions of volumes its account owns, and GetVolumeIoModeDecision refuses it another account's
 * volume. The VM of the environment stores three real decisions when it starts; five more are written through the
 * module's own store (ZStack never decides io_uring: it reports no kernel facts), two of them for a tenant's volumes.
 */
class AioIoModeQueryCase extends AioCaseBase {
    static final String H1 = "11111111111111111111111111111111"
    static final String H2 = "22222222222222222222222222222222"

    Map<String, String> vols = [:]
    SessionInventory tenant

    @Override
    void environment() {
        env = AioEnvs.localStorage()
    }

    @Override
    void test() {
        env.create {
            prepare()
            testConditions()
            testPagingCountAndSorting()
            testFields()
            testTenantSeesOnlyItsOwnVolumes()
            testGetRefusesAnotherAccountsVolume()
        }
    }

    void prepare() {
        assert query(adminSession(), []).inventories.size() == 3: "the VM's start stores its three disks"
        DiskOfferingInventory offering = env.inventoryByName("diskOffering") as DiskOfferingInventory
        ["a1", "a2", "a3", "t1", "t2"].each { n ->
            vols[n] = (createDataVolume { name = "q-" + n; diskOfferingUuid = offering.uuid } as VolumeInventory).uuid
        }
        AccountInventory account = createAccount { name = "aio-tenant"; password = "password" } as AccountInventory
        ["t1", "t2"].each { n -> changeResourceOwner { accountUuid = account.uuid; resourceUuid = vols[n] } }
        tenant = logInByAccount { accountName = "aio-tenant"; password = "password" } as SessionInventory

        def store = bean(Class.forName("org.zstack.aio.zstack.IoModeDecisionStore"))
        store.save([
                record("a1", H1, "native", "threads"),
                record("a2", H1, "io_uring", "io_uring"),
                record("a3", H2, "io_uring", "io_uring"),
                record("t1", H1, "native", "native"),
                record("t2", H1, "io_uring", "threads"),
        ])
    }

    private def record(String vol, String host, String requested, String effective) {
        return Class.forName("org.zstack.aio.plugin.DecisionRecord").newInstance(vols[vol], null, host, "start", requested,
                "global", effective, false, [], requested + " was requested (global); " + effective + " is applied.",
                null, null, null, null, null)
    }

    void testConditions() {
        // effective differs from requested: one condition pair per requested mode
        assert uuids(query(adminSession(), ["requested=native", "effective!=native"])) == [vols.a1] as Set
        assert uuids(query(adminSession(), ["requested=io_uring", "effective!=io_uring"])) == [vols.t2] as Set
        // io_uring disks on one host
        assert uuids(query(adminSession(), ["hostUuid=" + H1, "effective=io_uring"])) == [vols.a2] as Set
        assert uuids(query(adminSession(), ["effective=io_uring"])) == [vols.a2, vols.a3] as Set
        assert uuids(query(adminSession(), ["volumeUuid?=" + vols.a1 + "," + vols.t1])) == [vols.a1, vols.t1] as Set
        assert uuids(query(adminSession(), ["reason~=%io_uring is applied%"])) == [vols.a2, vols.a3] as Set
        // an unknown field is ZStack's error, not an empty answer
        def a = action(adminSession(), ["noSuchField=1"])
        assert a.call().error != null
    }

    void testPagingCountAndSorting() {
        def all = query(adminSession(), []) { it.sortBy = "volumeUuid"; it.sortDirection = "asc" }.inventories*.volumeUuid
        assert all.size() == 8 && all == all.sort(false)
        def pages = []
        for (int start = 0; start < 8; start += 3) {
            def page = query(adminSession(), []) { it.sortBy = "volumeUuid"; it.sortDirection = "asc"; it.limit = 3; it.start = start }
            assert page.inventories.size() == Math.min(3, 8 - start)
            pages.addAll(page.inventories*.volumeUuid)
        }
        assert pages == all
        def desc = query(adminSession(), []) { it.sortBy = "volumeUuid"; it.sortDirection = "desc" }.inventories*.volumeUuid
        assert desc == all.reverse()

        def counted = query(adminSession(), ["effective=io_uring"]) { it.count = true }
        assert counted.total == 2
        def withCount = query(adminSession(), []) { it.limit = 2; it.replyWithCount = true }
        assert withCount.total == 8 && withCount.inventories.size() == 2
    }

    void testFields() {
        def r = query(adminSession(), ["volumeUuid=" + vols.a1]) { it.fields = ["volumeUuid", "requested", "effective"] }
        assert r.inventories.size() == 1
        def inv = r.inventories[0]
        assert inv.getClass().name == "org.zstack.sdk.VolumeIoModeDecisionInventory"
        assert inv.volumeUuid == vols.a1 && inv.requested == "native" && inv.effective == "threads"
        assert inv.hostUuid == null && inv.reason == null && inv.checks == null

        def full = query(adminSession(), ["volumeUuid=" + vols.a1]).inventories[0]
        assert full.hostUuid == H1 && full.operation == "start" && full.source == "global" && full.checks == []
        assert full.decidedAt ==~ /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/
    }

    void testTenantSeesOnlyItsOwnVolumes() {
        assert uuids(query(tenant.uuid, [])) == [vols.t1, vols.t2] as Set
        assert query(tenant.uuid, []) { it.count = true }.total == 2
        assert query(tenant.uuid, ["volumeUuid=" + vols.a1]).inventories.isEmpty()
        assert uuids(query(tenant.uuid, ["effective=io_uring"])).isEmpty()
        assert uuids(query(tenant.uuid, ["requested=io_uring", "effective!=io_uring"])) == [vols.t2] as Set
    }

    void testGetRefusesAnotherAccountsVolume() {
        def get = AioCaseSupport.sdk("GetVolumeIoModeDecisionAction")
        get.volumeUuid = vols.a1
        get.sessionId = tenant.uuid
        def r = get.call()
        assert r.error != null: "a tenant read the admin's volume's decision"
        // ZStack's SDK reports a refused read API as an HTTP error (503) whose details are the server's error; that is
        // ZStack's own sentence for a resource an account cannot access (its i18n may translate it), SYS.1006
        Map server = JSONObjectUtil.toObject(r.error.details, LinkedHashMap.class).error as Map
        assert server.code == "SYS.1006"
        assert server.details.contains(vols.a1) && server.details.contains(tenant.accountUuid)
        assert AioCaseSupport.decision(tenant.uuid, vols.t1).effective == "native"
        assert AioCaseSupport.decision(adminSession(), vols.t1).effective == "native"
    }

    private static def action(String session, List<String> conditions) {
        def a = AioCaseSupport.sdk("QueryVolumeIoModeDecisionAction")
        a.sessionId = session
        a.conditions = conditions
        return a
    }

    private static def query(String session, List<String> conditions, Closure more = {}) {
        def a = action(session, conditions)
        more(a)
        def r = a.call()
        assert r.error == null: "QueryVolumeIoModeDecision ${conditions}: ${r.error}"
        return r.value
    }

    private static Set<String> uuids(def result) {
        return result.inventories*.volumeUuid as Set
    }
}
