package org.zstack.aio.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import org.springframework.stereotype.Service;
import org.zstack.aio.plugin.ConfigBindingRule;
import org.zstack.aio.plugin.ConfigRefusal;
import org.zstack.aio.plugin.ConfigValueRule;
import org.springframework.retry.annotation.Retryable;
import org.springframework.transaction.annotation.Transactional;
import org.zstack.aio.server.db.UnitOfWork;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.api.Uuids;
import org.zstack.aio.server.api.ZStackInventory;
import org.zstack.aio.server.inventory.VolumeVO;
import org.zstack.aio.server.query.QueryExecutor;
import org.zstack.aio.server.query.QueryReply;
import org.zstack.aio.server.query.QueryRequest;
import org.zstack.aio.server.query.QuerySpec;
import org.zstack.aio.server.audit.AuditEntry;
import org.zstack.aio.server.audit.AuditService;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

/**
 * Global configs and per-resource overrides (ZStack's model). Every refusal happens before any write, so a
 * refused call changes nothing.
 */
@Service
@Retryable(interceptor = UnitOfWork.IDEMPOTENT)
public class ConfigService {

    static final int MAX_VALUE_LENGTH = 1024;

    private final ConfigDefinitions definitions;
    private final GlobalConfigRepository globals;
    private final ResourceConfigRepository overrides;
    private final ResourceLocator locator;
    private final ConfigSnapshotLoader snapshots;
    private final List<ResourceConfigValidator> validators;
    private final QueryReply query;
    private final AuditService audit;
    private static final QuerySpec<GlobalConfigVO> GLOBAL_QUERY =
            QuerySpec.of(GlobalConfigVO.class, GlobalConfigInventory.class, "category", "name");
    private static final QuerySpec<ResourceConfigVO> RESOURCE_QUERY =
            QuerySpec.of(ResourceConfigVO.class, ResourceConfigInventory.class, "createDate", "uuid");

    public ConfigService(ConfigDefinitions definitions, GlobalConfigRepository globals, ResourceConfigRepository overrides,
                         ResourceLocator locator, ConfigSnapshotLoader snapshots, List<ResourceConfigValidator> validators,
                         QueryReply query, AuditService audit) {
        this.definitions = definitions;
        this.globals = globals;
        this.overrides = overrides;
        this.locator = locator;
        this.snapshots = snapshots;
        this.validators = validators;
        this.query = query;
        this.audit = audit;
    }

    @ZStackInventory("org.zstack.core.config.GlobalConfigInventory")
    public record GlobalConfigInventory(String category, String name, String value, String defaultValue,
                                        String description, List<String> validValues, List<String> bindResourceTypes) {
    }

    @ZStackInventory("org.zstack.resourceconfig.ResourceConfigInventory")
    public record ResourceConfigInventory(String uuid, String resourceUuid, String resourceType, String category,
                                          String name, String value, LocalDateTime createDate, LocalDateTime lastOpDate) {
    }

    /**
     * What a resource gets: the value, every level that sets it, and the config's valid values (so a tenant, who may
     * not read global configs, still learns what it may set on its own volumes).
     */
    public record EffectiveConfig(String value, List<ConfigSnapshot.Level> effectiveConfigs, List<String> validValues) {
    }

    /** GET /v1/global-configurations with ZStack's query parameters (admin only): the rows synced from the definitions. */
    public Map<String, Object> queryGlobal(Caller caller, QueryRequest q) {
        AccountService.requireAdmin(caller, "read global configs");
        return query.answer(GLOBAL_QUERY, q, QueryExecutor.Scope.all(), rows -> rows.stream().map(row ->
                definitions.find(row.getCategory(), row.getName()).map(def -> inventory(def, row))
                        .orElseGet(() -> new GlobalConfigInventory(row.getCategory(), row.getName(), row.getValue(),
                                row.getDefaultValue(), row.getDescription(), List.of(), List.of()))).toList());
    }

    /**
     * GET /v1/resource-configurations with ZStack's query parameters: an admin sees every override, a tenant the
     * overrides on volumes its account owns.
     */
    public Map<String, Object> queryResource(Caller caller, QueryRequest q) {
        QueryExecutor.Scope<ResourceConfigVO> scope = caller.admin() ? QueryExecutor.Scope.all() : (cb, cq, root) -> {
            var owned = cq.subquery(String.class);
            var v = owned.from(VolumeVO.class);
            owned.select(v.get("uuid")).where(cb.equal(v.get("accountUuid"), caller.accountUuid()));
            return cb.and(cb.equal(root.get("resourceType"), LocatedResource.VOLUME), root.get("resourceUuid").in(owned));
        };
        return query.answer(RESOURCE_QUERY, q, scope, rows -> rows.stream().map(r -> new ResourceConfigInventory(
                r.getUuid(), r.getResourceUuid(), r.getResourceType(), r.getCategory(), r.getName(), r.getValue(),
                r.getCreateDate(), r.getLastOpDate())).toList());
    }

    public GlobalConfigInventory getGlobal(Caller caller, String category, String name) {
        GlobalConfigDefinition def = definition(category, name);
        AccountService.requireAdmin(caller, "read global configs");
        return inventory(def);
    }

    @Transactional
    public GlobalConfigInventory updateGlobal(Caller caller, String category, String name, JsonNode rawValue) {
        GlobalConfigDefinition def = definition(category, name);
        AccountService.requireAdmin(caller, "change global configs");
        String value = validValue(def, rawValue);
        GlobalConfigVO row = globals.findByCategoryAndName(category, name)
                .orElseGet(() -> globals.save(new GlobalConfigVO(def)));
        String old = row.getValue();
        row.setValue(value);
        audit.record(caller, AuditEntry.globalConfig(category, name, old, value));
        return inventory(def, row);
    }

    @Transactional
    public ResourceConfigInventory updateResource(Caller caller, String category, String name, String resourceUuid,
                                                  JsonNode rawValue) {
        GlobalConfigDefinition def = definition(category, name);
        String value = validValue(def, rawValue);
        LocatedResource r = writableResource(caller, def, resourceUuid);
        for (ResourceConfigValidator v : validators) v.validate(r, def, value);
        ResourceConfigVO row = overrides.findByResourceUuidAndCategoryAndName(resourceUuid, category, name).orElse(null);
        String old = row == null ? null : row.getValue();
        if (row == null) {
            row = overrides.save(new ResourceConfigVO(Uuids.random(), resourceUuid, r.type(), category, name, value));
        } else {
            row.setValue(value);
        }
        audit.record(caller, new AuditEntry("UpdateResourceConfig", r.type(), resourceUuid, def.identity(), old, value));
        return new ResourceConfigInventory(row.getUuid(), resourceUuid, r.type(), category, name, value,
                row.getCreateDate(), row.getLastOpDate());
    }

    @Retryable(interceptor = UnitOfWork.NOT_IDEMPOTENT)
    @Transactional
    public void deleteResource(Caller caller, String category, String name, String resourceUuid) {
        GlobalConfigDefinition def = definition(category, name);
        LocatedResource r = writableResource(caller, def, resourceUuid);
        ResourceConfigVO row = overrides.findByResourceUuidAndCategoryAndName(resourceUuid, category, name)
                .orElseThrow(() -> new ApiException(ErrorCode.NOT_FOUND,
                        "resource " + resourceUuid + " has no override of " + def.identity() + ".",
                        "Nothing to delete: it already follows its parent or the global value."));
        overrides.delete(row);
        audit.record(caller, new AuditEntry("DeleteResourceConfig", r.type(), resourceUuid, def.identity(), row.getValue(), null));
    }

    @Transactional(readOnly = true)
    public EffectiveConfig getResource(Caller caller, String resourceUuid, String category, String name) {
        GlobalConfigDefinition def = definition(category, name);
        LocatedResource r = readableResource(caller, resourceUuid);
        requireBindable(def, r);
        List<ResourceRef> chain = r.chain();
        ConfigSnapshot snap = snapshots.load(category, chain.stream().map(ResourceRef::uuid).toList());
        return new EffectiveConfig(snap.resolve(def, chain).value(), snap.levels(def, chain), def.validValues());
    }

    public GlobalConfigDefinition definition(String category, String name) {
        return definitions.find(category, name).orElseThrow(() -> new ApiException(ErrorCode.UNKNOWN_CONFIG,
                "there is no config " + Uuids.abbreviate(category) + "/" + Uuids.abbreviate(name) + ".",
                "List the configs with GET /v1/global-configurations."));
    }

    private LocatedResource writableResource(Caller caller, GlobalConfigDefinition def, String resourceUuid) {
        LocatedResource r = readableResource(caller, resourceUuid);
        if (!caller.admin() && !LocatedResource.VOLUME.equals(r.type())) {
            throw ApiException.forbidden("only an administrator may set configs on a " + r.type() + ".");
        }
        requireBindable(def, r);
        return r;
    }

    /** The same answer for reading, setting and deleting: a config that cannot live on this resource type is a 400. */
    private static void requireBindable(GlobalConfigDefinition def, LocatedResource r) {
        ConfigRefusal refused = ConfigBindingRule.refusal(def.category(), def.name(), def.bindResourceTypes(), r.type());
        if (refused != null) throw new ApiException(ErrorCode.CONFIG_NOT_BINDABLE, refused.description(), refused.whatToDo());
    }

    private LocatedResource readableResource(Caller caller, String resourceUuid) {
        Uuids.require(resourceUuid, "resource");
        LocatedResource r = locator.locate(resourceUuid).orElseThrow(() -> new ApiException(ErrorCode.NOT_FOUND,
                "no resource with uuid " + resourceUuid + ".", "Check the uuid of the volume or primary storage."));
        boolean tenantsOwn = LocatedResource.VOLUME.equals(r.type()) && caller.owns(r.ownerAccountUuid());
        if (!caller.admin() && !tenantsOwn) {
            throw ApiException.forbidden("you may only read and change configs of volumes your account owns.");
        }
        return r;
    }

    public static String validValue(GlobalConfigDefinition def, JsonNode raw) {
        if (raw == null || raw.isMissingNode()) {
            throw ApiException.badRequest("field 'value' is required.", "Send {\"value\":\"...\"}.");
        }
        if (!raw.isTextual()) {
            throw new ApiException(ErrorCode.INVALID_CONFIG_VALUE,
                    "the value of " + def.identity() + " must be a JSON string, not " + Bodies.typeOf(raw) + ".",
                    "Send one of: " + String.join(", ", def.validValues()) + ", as a string.");
        }
        String v = raw.textValue();
        if (v.length() > MAX_VALUE_LENGTH) {
            throw new ApiException(ErrorCode.INVALID_CONFIG_VALUE,
                    "the value of " + def.identity() + " is " + v.length() + " characters long, over " + MAX_VALUE_LENGTH + ".",
                    "Send one of: " + String.join(", ", def.validValues()) + ".");
        }
        if ("Integer".equals(def.type())
            && (!v.matches("0|[1-9][0-9]{0,5}") || Integer.parseInt(v) <= def.numberGreaterThan())) {
            throw new ApiException(ErrorCode.INVALID_CONFIG_VALUE,
                    "'" + Uuids.abbreviate(v) + "' is not a valid value of " + def.identity() + ".",
                    "Send a whole number from " + Math.max(0, def.numberGreaterThan() + 1) + " to 999999, as a string.");
        }
        ConfigRefusal refused = ConfigValueRule.refusal(def.identity(), def.validValues(), v);
        if (refused != null) throw new ApiException(ErrorCode.INVALID_CONFIG_VALUE, refused.description(), refused.whatToDo());
        return v;
    }

    private GlobalConfigInventory inventory(GlobalConfigDefinition def) {
        return globals.findByCategoryAndName(def.category(), def.name()).map(row -> inventory(def, row))
                .orElseGet(() -> new GlobalConfigInventory(def.category(), def.name(), def.defaultValue(),
                        def.defaultValue(), def.description(), def.validValues(), def.bindResourceTypes()));
    }

    private static GlobalConfigInventory inventory(GlobalConfigDefinition def, GlobalConfigVO row) {
        return new GlobalConfigInventory(def.category(), def.name(), row.getValue(), def.defaultValue(),
                def.description(), def.validValues(), def.bindResourceTypes());
    }
}
