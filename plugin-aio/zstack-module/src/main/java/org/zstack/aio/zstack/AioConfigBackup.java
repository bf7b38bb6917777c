package org.zstack.aio.zstack;

import org.zstack.aio.plugin.ConfigBackupRule;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.core.config.GlobalConfig;
import org.zstack.resourceconfig.ResourceConfig;
import org.zstack.resourceconfig.ResourceConfigFacade;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the admin's values of the module's configs where ZStack's boot does not delete them. A management node
 * that boots without the module (the new WAR of a ZStack upgrade, a node not yet installed during a rolling install)
 * deletes the GlobalConfigVO rows of configs it has no definition for (GlobalConfigFacadeImpl,
 * persistConfigInXmlButNotInDatabase); the next boot with the module creates them again at the default. ZStack's
 * boot leaves ResourceConfigVO rows alone, but they are copied too, so that a row removed by hand comes back and the
 * rule is one for both.
 *
 * <p>Every change an admin makes through ZStack (UpdateGlobalConfig, ResetGlobalConfig, UpdateResourceConfig,
 * DeleteResourceConfig) reaches the local update and delete extensions installed here, on the node that made it,
 * which copy it into AioConfigBackupVO with the identity of ZStack's row. At start, after ZStack's own config boot,
 * each copy is compared with ZStack's row by the core's {@link ConfigBackupRule} and restored through ZStack's own
 * config API (validators, database, the other nodes' events), never over a newer value.
 */
public final class AioConfigBackup {
    private static final CLogger logger = Utils.getLogger(AioConfigBackup.class);

    private final ConfigBackupStore store;
    private final ResourceConfigFacade rcf;
    private final AioSchema schema;

    public AioConfigBackup(ConfigBackupStore store, ResourceConfigFacade rcf, AioSchema schema) {
        this.store = store;
        this.rcf = rcf;
        this.schema = schema;
    }

    /** What a restore did, one sentence per value it changed or could not change. */
    static final class Restored {
        final List<String> restored = new ArrayList<>();
        final List<String> adopted = new ArrayList<>();
        final List<String> forgotten = new ArrayList<>();
        final List<String> refused = new ArrayList<>();
        int copied;
    }

    void install() {
        for (final IoModeConfig c : IoModeConfig.ALL) {
            GlobalConfig g = AioIoModeGlobalConfig.of(c);
            g.installLocalUpdateExtension((oldConfig, newConfig) -> copy(newConfig.getCategory(), newConfig.getName(), null));
            ResourceConfig rc = rcf.getResourceConfig(g.getIdentity());
            if (rc == null) continue; // global only (onUnsatisfied)
            rc.installLocalUpdateExtension((config, resourceUuid, resourceType, oldValue, newValue) ->
                    copy(g.getCategory(), g.getName(), resourceUuid));
            rc.installLocalDeleteExtension((config, resourceUuid, resourceType, originValue) -> {
                if (schema.ready()) store.delete(g.getCategory(), g.getName(), resourceUuid);
            });
        }
    }

    /** Copies ZStack's row as it is now; never fails the admin's change it follows (ZStack has written it already). */
    private void copy(String category, String name, String resourceUuid) {
        if (!schema.ready()) return;
        try {
            ConfigBackupStore.Value live = store.live(category, name, resourceUuid);
            if (live != null && live.value != null) store.save(live);
        } catch (RuntimeException e) {
            logger.warn(String.format("plugin-aio: cannot copy %s/%s%s into %s; it is copied at the module's next start",
                    category, name, resourceUuid == null ? "" : " of resource[uuid:" + resourceUuid + "]", ConfigBackupStore.TABLE), e);
        }
    }

    /** Restores the copies ZStack's rows lost, then copies what has no copy yet. Call after ZStack's config boot. */
    Restored restore() {
        Restored out = new Restored();
        if (!schema.ready()) return out;
        for (ConfigBackupStore.Value copy : store.copies()) {
            ConfigBackupStore.Value live = store.live(copy.category, copy.name, copy.resourceUuid);
            ConfigBackupRule.Action action = ConfigBackupRule.decide(copy.value, copy.row,
                    live == null ? null : live.value, live == null ? null : live.row, store.resourceExists(copy.resourceUuid));
            switch (action) {
                case FORGET:
                    store.delete(copy.category, copy.name, copy.scope());
                    out.forgotten.add(copy.describe());
                    break;
                case ADOPT_LIVE:
                    store.save(live);
                    if (!live.value.equals(copy.value)) {
                        out.adopted.add(live.describe() + " kept: ZStack's row changed after the module's copy (" + copy.value + ")");
                    }
                    break;
                case RESTORE:
                    restore(copy, live, out);
                    break;
                default:
                    break;
            }
        }
        out.copied = store.copyUncopied();
        for (String s : out.restored) logger.info("plugin-aio: restored " + s);
        for (String s : out.adopted) logger.info("plugin-aio: " + s);
        for (String s : out.refused) logger.warn("plugin-aio: " + s);
        return out;
    }

    private void restore(ConfigBackupStore.Value copy, ConfigBackupStore.Value live, Restored out) {
        String why = live == null ? "ZStack had no row for it" : "ZStack's row was created again since the module's copy"
                + " (at " + live.value + ": a boot without the module deletes it)";
        try {
            if (copy.resourceUuid == null) {
                GlobalConfig g = AioIoModeGlobalConfig.of(IoModeConfig.named(copy.name));
                if (copy.value.equals(g.value())) {
                    // ZStack's updateValue skips a value it already holds in memory; only the row differs
                    g.validate(copy.value);
                    store.writeGlobalRow(copy);
                } else {
                    g.updateValue(copy.value);
                }
            } else {
                rcf.getResourceConfig(GlobalConfig.produceIdentity(copy.category, copy.name)).updateValue(copy.resourceUuid, copy.value);
            }
            copy(copy.category, copy.name, copy.resourceUuid); // the row's new identity (ZStack may skip an equal value)
            out.restored.add(copy.describe() + ": " + why);
        } catch (RuntimeException e) {
            // the value no longer passes ZStack's checks (e.g. native on a volume that became sparse): the copy is kept,
            // the admin decides; ZStack's value stays
            out.refused.add("cannot restore " + copy.describe() + " (" + why + "): " + e.getMessage()
                    + "; the copy is kept in " + ConfigBackupStore.TABLE);
        }
    }
}
