package org.zstack.test.integration.aio

import org.springframework.jdbc.core.JdbcTemplate
import org.zstack.core.Platform
import org.zstack.core.config.GlobalConfigFacade
import org.zstack.core.db.DatabaseFacade
import org.zstack.sdk.AccountInventory
import org.zstack.sdk.DiskOfferingInventory
import org.zstack.sdk.SessionInventory
import org.zstack.sdk.UpdateGlobalConfigAction
import org.zstack.sdk.UpdateResourceConfigAction
import org.zstack.sdk.VmInstanceInventory
import org.zstack.sdk.VolumeInventory

import static org.zstack.test.integration.aio.AioBadInputs.*

/**
 * Generated bad requests through ZStack's API against the module's configs and APIs (issue 28, "Bad input,
 * generated"): every one is answered with ZStack's own error, and afterwards every kvm/vm.ioMode% global and
 * resource config, every stored decision and every host's facts are exactly as before (rows compared column by
 * column, dates included), and the management node logged no exception the requests caused.
 *
 * Sent raw to ZStack's REST API as a script would (AioRawApi), and through ZStack's Java SDK actions where one
 * exists. What ZStack accepts that may look odd, and why that is right, is checked at the end
 * ({@link #testWhatZStackAcceptsThatLooksOdd}) and listed in docs/zstack-module.md, "Bad input".
 */
class AioIoModeBadInputCase extends AioCaseBase {
    /** generator -> what it expects: "error" (ZStack's error shape), "error or rest" (or RestServer's own 4xx) */
    Map<String, String> expects = [:]
    List<Map> sent = []
    Map<String, String> uuids = [:]
    SessionInventory tenant
    AioLogWatch watch

    @Override
    void environment() {
        env = AioEnvs.localStorage()
        AioCaseSupport.answerProbe(env) { String hostUuid -> AioCaseSupport.CAPABLE_HOST }
    }

    @Override
    void test() {
        env.create {
            prepare()
            Map before = snapshot()
            long t0 = System.currentTimeMillis()
            watch = new AioLogWatch().attach()
            try {
                configsOnTheirTargets()
                configsOnWrongTargets()
                configsThroughTheSdk()
                configsInABatch()
                decisionApi()
                hostFactsApi()
                queryApi()
            } finally {
                watch.detach()
            }
            long took = System.currentTimeMillis() - t0
            Map after = snapshot()
            report(took)
            before.each { table, rows -> assert after[table] == rows: "${table} changed by the bad requests" }
            checkAnswers()
            testZStacksOwnConfigsStillAnswerBadly()
            testInjectedQueryValuesAreOnlyValues()
            testATenantQuerySeesOnlyItsOwn()
            testWhatZStackAcceptsThatLooksOdd()
            testA4ByteCharacterIsLostByZStacksJobStore()
        }
    }

    void prepare() {
        VmInstanceInventory vm = env.inventoryByName("vm") as VmInstanceInventory
        uuids.vm = vm.uuid
        uuids.root = vm.rootVolumeUuid
        uuids.data = vm.allVolumes.find { it.uuid != vm.rootVolumeUuid }.uuid
        ["kvm": "host", "local": "ps", "l3": "l3", "zone": "zone", "image": "image", "cluster": "cluster",
         "instanceOffering": "offering"].each { name, key -> uuids[key] = env.inventoryByName(name).uuid }
        DiskOfferingInventory offering = env.inventoryByName("diskOffering") as DiskOfferingInventory
        VolumeInventory gone = createDataVolume { name = "bad-deleted"; diskOfferingUuid = offering.uuid } as VolumeInventory
        deleteDataVolume { uuid = gone.uuid }
        expungeDataVolume { uuid = gone.uuid }
        uuids.deleted = gone.uuid
        uuids.undecided = (createDataVolume { name = "bad-undecided"; diskOfferingUuid = offering.uuid } as VolumeInventory).uuid
        uuids.tenantVolume = (createDataVolume { name = "bad-tenant"; diskOfferingUuid = offering.uuid } as VolumeInventory).uuid
        AccountInventory account = createAccount { name = "aio-bad-tenant"; password = "password" } as AccountInventory
        uuids.account = account.uuid
        changeResourceOwner { accountUuid = account.uuid; resourceUuid = uuids.tenantVolume }
        tenant = logInByAccount { accountName = "aio-bad-tenant"; password = "password" } as SessionInventory
        def store = bean(Class.forName("org.zstack.aio.zstack.IoModeDecisionStore"))
        store.save([Class.forName("org.zstack.aio.plugin.DecisionRecord").newInstance(uuids.tenantVolume, null,
                uuids.host, "start", "native", "global", "threads", false, [], "native was requested (global); threads is applied.",
                null, null, null, null, null)])

        // values at every level, so that "as before" compares real rows
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", IO_MODE, uuids.data, "threads") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", IO_MODE, uuids.ps, "io_uring") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", ALLOW_FALLOC, uuids.ps, "true") == null
        assert AioCaseSupport.decision(adminSession(), uuids.root).volumeUuid == uuids.root
    }

    /** Every row the requests could touch, and the global values ZStack keeps in memory. */
    Map<String, Object> snapshot() {
        // a start's records are written off its thread: what this node queued is waited for, as the module's reads do
        bean(Class.forName("org.zstack.aio.zstack.IoModeDecisionStore")).awaitAllWrites()
        JdbcTemplate jdbc = new JdbcTemplate(bean(DatabaseFacade.class).dataSource)
        return [
                GlobalConfigVO         : jdbc.queryForList("SELECT * FROM GlobalConfigVO WHERE category = 'kvm' AND name LIKE 'vm.ioMode%' ORDER BY name"),
                globalInMemory         : bean(GlobalConfigFacade.class).allConfig.values().findAll {
                    it.category == "kvm" && it.name.startsWith("vm.ioMode")
                }.collectEntries { [(it.name): it.value()] },
                ResourceConfigVO       : jdbc.queryForList("SELECT * FROM ResourceConfigVO ORDER BY uuid"),
                AioVolumeIoModeDecisionVO: jdbc.queryForList("SELECT * FROM AioVolumeIoModeDecisionVO ORDER BY volumeUuid"),
                AioHostIoFactsVO       : jdbc.queryForList("SELECT * FROM AioHostIoFactsVO ORDER BY hostUuid"),
                // the injected values name this table; its rows, not their dates (ZStack's trackers may touch those)
                VolumeVO               : jdbc.queryForList("SELECT uuid, name, status, state FROM VolumeVO ORDER BY uuid"),
        ]
    }

    private void record(String generator, String label, AioRawApi.Answer a, String expect = "error") {
        expects.putIfAbsent(generator, expect)
        sent.add([g: generator, l: label, a: a])
    }

    /** The SDK action's answer; an exception the SDK throws before sending is recorded as such (never ZStack's error). */
    private static AioRawApi.Answer sdk(Closure action) {
        try {
            return AioRawApi.ofSdk(action().call().error)
        } catch (Exception e) {
            return new AioRawApi.Answer(status: 0, text: "the SDK threw " + e)
        }
    }

    private static Map update(String action, String value) {
        return [(action): [value: value]]
    }

    private AioRawApi.Answer putResourceConfig(String config, String target, String value) {
        return AioRawApi.put(adminSession(), "resource-configurations/kvm/${config}/${AioRawApi.seg(target)}/actions",
                update("updateResourceConfig", value))
    }

    /** Each config with each of its bad values: global, and on a volume and a primary storage (bound or not). */
    void configsOnTheirTargets() {
        VALID.keySet().each { String config ->
            badValues(config).each { String kind, String value ->
                record("global config, bad value", "${config} ${kind}",
                        AioRawApi.put(adminSession(), "global-configurations/kvm/${config}/actions", update("updateGlobalConfig", value)))
                ["volume": uuids.data, "primaryStorage": uuids.ps].each { String type, String target ->
                    String g = BOUND_TO[config].contains(type) ? "${type} config, bad value" : "${type} config, not bound"
                    record(g, "${config} ${kind}", putResourceConfig(config, target, value))
                }
            }
            // valid values where the config is not bound
            VALID[config].each { String value ->
                ["volume": uuids.data, "primaryStorage": uuids.ps].findAll { !BOUND_TO[config].contains(it.key) }.each { type, target ->
                    record("${type} config, not bound", "${config} valid ${value}", putResourceConfig(config, target, value))
                }
            }
        }
    }

    /** Each config, its valid values and a few bad ones, on resources it cannot be bound to or that do not exist. */
    void configsOnWrongTargets() {
        Map<String, String> targets = [
                "host"              : uuids.host, "VM": uuids.vm, "L3 network": uuids.l3, "zone": uuids.zone,
                "image"             : uuids.image, "cluster": uuids.cluster, "instance offering": uuids.offering,
                "account"           : uuids.account, "unknown uuid": Platform.uuid, "deleted volume": uuids.deleted,
                "malformed uuid"    : "not-a-uuid", "injected uuid": "x' OR '1'='1", "non-ASCII uuid": "ボリューム",
                "33 characters uuid": uuids.data + "0",
        ]
        VALID.keySet().each { String config ->
            Map<String, String> values = [:]
            VALID[config].each { values["valid " + it] = it }
            values.putAll(someBadValues(config))
            targets.each { String type, String target ->
                values.each { String kind, String value ->
                    record("resource config on a wrong target", "${config} on ${type}: ${kind}", putResourceConfig(config, target, value))
                }
            }
            record("resource config on an empty uuid", config,
                    AioRawApi.put(adminSession(), "resource-configurations/kvm/${config}//actions", update("updateResourceConfig", VALID[config][0])),
                    "error or rest")
        }
    }

    /** ZStack's Java SDK actions: a global value left out (null), and resource configs on wrong targets. */
    void configsThroughTheSdk() {
        VALID.keySet().each { String config ->
            record("SDK: global config without a value", config,
                    sdk { new UpdateGlobalConfigAction(category: "kvm", name: config, value: null, sessionId: adminSession()) })
            record("global config without a value", config,
                    AioRawApi.put(adminSession(), "global-configurations/kvm/${config}/actions", [updateGlobalConfig: [:]]))
            ["host": uuids.host, "VM": uuids.vm, "unknown uuid": Platform.uuid, "deleted volume": uuids.deleted].each { type, target ->
                record("SDK: resource config on a wrong target", "${config} on ${type}", sdk {
                    new UpdateResourceConfigAction(category: "kvm", name: config, resourceUuid: target, value: VALID[config][0],
                            sessionId: adminSession())
                })
            }
        }
    }

    /** ZStack's batch API (UpdateResourceConfigs): its values are not trimmed, and the binding is checked per value. */
    void configsInABatch() {
        def batch = { String target, String config, String value ->
            AioRawApi.post(adminSession(), "resource-configurations/${AioRawApi.seg(target)}/resource-configs/actions",
                    [params: [resourceConfigs: [[category: "kvm", name: config, value: value]]]])
        }
        VALID.keySet().each { String config ->
            ["unknown word": "fast", "spaces around": " " + VALID[config][0] + " ", "empty": "", "1 MB": "n" * (1 << 20),
             "SQL injection": "native'; DROP TABLE VolumeVO; --"].each { kind, value ->
                record("batch, bad value", "${config} on volume: ${kind}", batch(uuids.data, config, value))
                record("batch, bad value", "${config} on primary storage: ${kind}", batch(uuids.ps, config, value))
            }
            record("batch, no value", config, batch(uuids.data, config, null))
            ["host": uuids.host, "VM": uuids.vm, "unknown uuid": Platform.uuid].each { type, target ->
                record("batch, wrong target", "${config} on ${type}", batch(target, config, VALID[config][0]))
            }
            ["volume": uuids.data, "primaryStorage": uuids.ps].findAll { !BOUND_TO[config].contains(it.key) }.each { type, target ->
                record("batch, not bound", "${config} on ${type}", batch(target, config, VALID[config][0]))
            }
        }
    }

    private Map<String, String> wrongUuids() {
        return ["unknown": Platform.uuid, "deleted volume": uuids.deleted, "host": uuids.host, "VM": uuids.vm,
                "primary storage": uuids.ps, "image": uuids.image, "malformed": "not-a-uuid", "injected": "x' OR '1'='1",
                "non-ASCII": "ボリューム", "33 characters": uuids.data + "0"]
    }

    void decisionApi() {
        wrongUuids().each { String kind, String uuid ->
            record("GetVolumeIoModeDecision, not a volume", kind, AioRawApi.get(adminSession(), "volumes/${AioRawApi.seg(uuid)}/io-mode-decision"))
            def a = AioCaseSupport.sdk("GetVolumeIoModeDecisionAction")
            a.volumeUuid = uuid
            a.sessionId = adminSession()
            record("SDK: GetVolumeIoModeDecision, not a volume", kind, sdk { a })
            record("GetVolumeIoModeDecision, tenant, not a volume", kind, AioRawApi.get(tenant.uuid, "volumes/${AioRawApi.seg(uuid)}/io-mode-decision"))
        }
        record("GetVolumeIoModeDecision, no decision yet", "admin", AioRawApi.get(adminSession(), "volumes/${uuids.undecided}/io-mode-decision"))
        ["root volume": uuids.root, "data volume": uuids.data, "undecided volume": uuids.undecided].each { kind, uuid ->
            record("GetVolumeIoModeDecision, another account's volume", kind, AioRawApi.get(tenant.uuid, "volumes/${uuid}/io-mode-decision"))
            def a = AioCaseSupport.sdk("GetVolumeIoModeDecisionAction")
            a.volumeUuid = uuid
            a.sessionId = tenant.uuid
            record("SDK: GetVolumeIoModeDecision, another account's volume", kind, sdk { a })
        }
    }

    void hostFactsApi() {
        Map<String, String> notHosts = wrongUuids().findAll { it.key != "host" }
        notHosts["volume"] = uuids.data
        notHosts.each { String kind, String uuid ->
            record("GetHostIoFacts, not a host", kind, AioRawApi.get(adminSession(), "hosts/${AioRawApi.seg(uuid)}/io-facts"))
            def a = AioCaseSupport.sdk("GetHostIoFactsAction")
            a.hostUuid = uuid
            a.sessionId = adminSession()
            record("SDK: GetHostIoFacts, not a host", kind, sdk { a })
        }
        ["the host": uuids.host, "unknown": Platform.uuid].each { kind, uuid ->
            record("GetHostIoFacts, tenant", kind, AioRawApi.get(tenant.uuid, "hosts/${uuid}/io-facts"))
        }
    }

    /** Malformed query conditions and parameters, as an admin and as a tenant. */
    void queryApi() {
        Map<String, String> malformed = [
                "unknown field"         : "q=noSuchField%3D1",
                "unknown nested field"  : "q=checks.check%3Dx",
                "no operator"           : "q=requested",
                "bad operator <>"       : "q=requested%3C%3Enative",
                "empty field name"      : "q=%3Dnative",
                "injected field name"   : "q=requested%3D'x'%20OR%201%3D1%20--%3Dnative",
                "limit not a number"    : "limit=abc",
                "limit beyond int"      : "limit=99999999999",
                "limit -1"              : "limit=-1",
                "start not a number"    : "start=x",
                "start negative"        : "start=-5",
                "sort by unknown field" : "sort=%2BnoSuchField",
                "sort by injected field": "sort=-volumeUuid%3B%20DROP%20TABLE%20VolumeVO",
                "fields unknown"        : "fields=noSuchField",
                "fields injected"       : "fields=volumeUuid,(SELECT%201)",
                "fields JSON column"    : "fields=checks",
                "value with a quote"    : "q=volumeUuid%3Dx'%20OR%20'1'%3D'1",
                "value with a backslash": "q=reason~%3D%25%5C%25",
                "in-list with a quote"  : "q=hostUuid%3F%3Da','b",
                "groupBy unknown"       : "groupBy=noSuchField",
        ]
        [admin: adminSession(), tenant: tenant.uuid].each { String who, String session ->
            malformed.each { String kind, String query ->
                record("QueryVolumeIoModeDecision, malformed", "${who}: ${kind}",
                        AioRawApi.get(session, "volume-io-mode-decisions?" + query), "error or rest")
            }
            [["noSuchField=1"], ["requested<>native"], ["checks.check=x"], ["decidedAt>2026"], ["requested=native' OR 1=1 --"]].each { List<String> conds ->
                def a = AioCaseSupport.sdk("QueryVolumeIoModeDecisionAction")
                a.conditions = conds
                a.sessionId = session
                record("SDK: QueryVolumeIoModeDecision, malformed", "${who}: ${conds}", sdk { a }, "error or rest")
            }
            [[sortBy: "noSuchField"], [limit: -1], [start: -5], [fields: ["noSuchField"]], [groupBy: "x"]].each { Map params ->
                def a = AioCaseSupport.sdk("QueryVolumeIoModeDecisionAction")
                params.each { k, v -> a[k] = v }
                a.sessionId = session
                record("SDK: QueryVolumeIoModeDecision, malformed", "${who}: ${params}", sdk { a }, "error or rest")
            }
        }
    }

    void report(long took) {
        println("[AioIoModeBadInputCase] ${sent.size()} bad requests in ${took} ms")
        sent.groupBy { it.g }.each { String g, List<Map> rs ->
            def codes = rs.countBy { it.a.code() }.collect { k, v -> "${k} x${v}" }.join(", ")
            println("[AioIoModeBadInputCase]   ${g}: ${rs.size()} (${codes})")
        }
        sent.findAll { !it.a.isZStackError() }.each { println("[AioIoModeBadInputCase]   not ZStack's error shape: ${it.g} | ${it.l} | ${it.a}") }
        watch.seen.each { println("[AioIoModeBadInputCase]   logged: ${it}") }
    }

    void checkAnswers() {
        assert sent.size() >= 300
        def wrong = sent.findAll { Map r ->
            AioRawApi.Answer a = r.a
            !(a.isZStackError() || (expects[r.g] == "error or rest" && a.isRestRefusal()))
        }
        assert wrong.isEmpty(): "${wrong.size()} answers are not ZStack's error: " + wrong.take(20).collect { "${it.g} | ${it.l} | ${it.a}" }.join("\n")
        // ZStack logs every RBAC refusal (ID.1002, a tenant calling an admin-only API) with its stack: its way, not a fault
        def exceptions = watch.seen.findAll { it.throwable != null || it.level == "ERROR" }.findAll {
            !(it.throwable == "org.zstack.header.errorcode.OperationFailureException" && it.thrownMessage?.contains('"ID.1002"'))
        }
        assert exceptions.isEmpty(): "the requests made the management node log: " + exceptions.take(20).join("\n")
    }

    /**
     * Why the module guards its configs (IoModeConfigRequestGuard): the same requests to one of ZStack's own configs
     * (kvm/vm.cacheMode, no guard) are answered by ZStack 5.2.0 with an internal error, or a success that wrote
     * nothing. Checked outside the battery: these do log an exception.
     */
    void testZStacksOwnConfigsStillAnswerBadly() {
        def before = snapshot()
        AioRawApi.Answer a = AioRawApi.put(adminSession(), "global-configurations/kvm/vm.cacheMode/actions", [updateGlobalConfig: [:]])
        assert a.code() == "SYS.1000": a.toString()
        a = AioRawApi.post(adminSession(), "resource-configurations/${uuids.data}/resource-configs/actions",
                [params: [resourceConfigs: [[category: "kvm", name: "vm.cacheMode", value: "fast"]]]])
        assert a.code() == "SYS.1000": a.toString()
        a = AioRawApi.post(adminSession(), "resource-configurations/${uuids.host}/resource-configs/actions",
                [params: [resourceConfigs: [[category: "kvm", name: "vm.cacheMode", value: "none"]]]])
        assert a.isSuccess(): a.toString()
        assert snapshot() == before
    }

    private static def query(String session, List<String> conditions, Closure more = {}) {
        def a = AioCaseSupport.sdk("QueryVolumeIoModeDecisionAction")
        a.conditions = conditions
        a.sessionId = session
        more(a)
        def r = a.call()
        assert r.error == null: "QueryVolumeIoModeDecision ${conditions}: ${r.error}"
        return r.value
    }

    /**
     * A condition's value is a value to ZStack's query (ZQL): an injected one without a quote (those are refused, as
     * ZQL cannot parse them) matches only what it spells.
     */
    void testInjectedQueryValuesAreOnlyValues() {
        ["requested=native OR 1=1 --", "reason~=%; DROP TABLE VolumeVO; --%", "hostUuid?=a,b) OR (1=1"].each { String c ->
            assert query(adminSession(), [c]).inventories.isEmpty(): c
            assert query(tenant.uuid, [c]).inventories.isEmpty(): c
        }
    }

    void testATenantQuerySeesOnlyItsOwn() {
        assert query(tenant.uuid, []).inventories*.volumeUuid == [uuids.tenantVolume]
        assert query(tenant.uuid, []) { it.count = true }.total == 1
        assert query(tenant.uuid, ["volumeUuid?=${uuids.root},${uuids.tenantVolume}".toString()]).inventories*.volumeUuid == [uuids.tenantVolume]
        assert query(tenant.uuid, ["volumeUuid=${uuids.root}".toString()]).inventories.isEmpty()
        assert query(tenant.uuid, ["hostUuid=${uuids.host}".toString()]) { it.replyWithCount = true }.total == 1
        assert (query(adminSession(), []).inventories*.volumeUuid as Set).containsAll([uuids.root, uuids.data, uuids.tenantVolume])
    }

    /**
     * What ZStack accepts that may look odd: white space, tabs, newlines and NUL around a valid value are trimmed by
     * ZStack's API (APIMessage.validate, String.trim) before any validator sees the value, so the value stored is
     * exactly the valid one; the module never sees the characters.
     */
    void testWhatZStackAcceptsThatLooksOdd() {
        String before = snapshot().globalInMemory[IO_MODE]
        AioRawApi.Answer a = AioRawApi.put(adminSession(), "global-configurations/kvm/${IO_MODE}/actions",
                update("updateGlobalConfig", "\t io_uring\n\u0000"))
        assert a.isSuccess(): a.toString()
        assert queryGlobalConfig { conditions = ["category=kvm", "name=${IO_MODE}".toString()] }[0].value == "io_uring"
        assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", IO_MODE, before) == null

        a = putResourceConfig(IO_MODE, uuids.ps, "\u0000native \r\n")
        assert a.isSuccess(): a.toString()
        assert getResourceConfig { category = "kvm"; name = IO_MODE; resourceUuid = uuids.ps }.value == "native"
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", IO_MODE, uuids.ps, "io_uring") == null

        // an empty volume uuid: ZStack's REST server matches GET /v1/volumes//io-mode-decision to its own
        // GET /v1/volumes/{uuid} (uuid "io-mode-decision"), which finds no volume: an empty list, not the module's API
        a = AioRawApi.get(adminSession(), "volumes//io-mode-decision")
        assert a.isSuccess() && a.text.contains('"inventories":[]'): a.toString()
    }

    /**
     * A character beyond the Basic Multilingual Plane (an emoji, 4 bytes in UTF-8) in any async API: ZStack's REST
     * server stores the request in AsyncRestVO, whose utf8 (3-byte) column refuses it (logged as a data truncation
     * error), so the job's answer is lost and polling it says 404 "the job has been expired". The API itself still ran
     * and was refused (the module's sentence is in the log); nothing changed. ZStack's limit, not the module's.
     */
    void testA4ByteCharacterIsLostByZStacksJobStore() {
        def before = snapshot()
        AioRawApi.Answer a = AioRawApi.put(adminSession(), "global-configurations/kvm/${IO_MODE}/actions",
                update("updateGlobalConfig", "threads\uD83D\uDE80"))
        assert a.status == 404 && a.text.contains("the job has been expired"): a.toString()
        a = putResourceConfig(IO_MODE, uuids.data, "\uD83D\uDE80")
        assert a.status == 404: a.toString()
        assert snapshot() == before
    }
}
