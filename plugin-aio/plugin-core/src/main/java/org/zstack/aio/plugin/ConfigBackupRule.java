package org.zstack.aio.plugin;

/**
 * Whether a platform's stored value of one of the feature's configs or the plugin's own copy of it is the admin's.
 *
 * <p>The plugin writes down every value an admin sets (its copy: the value and which platform row it was read
 * from, e.g. ZStack's GlobalConfigVO.id or ResourceConfigVO.uuid). Something else may change the platform's row while
 * the plugin is not there to hear it: ZStack's boot without the plugin deletes a global config it has no definition
 * for, and a later boot with the plugin creates the row again, at the default, with a new id. The plugin never
 * compares clocks (nodes' clocks differ, and ZStack's GlobalConfigVO has no date); it compares rows:
 * <ul>
 *   <li>the copy's resource is gone: {@link Action#FORGET};</li>
 *   <li>the platform has no row: the row was deleted without the plugin hearing it, {@link Action#RESTORE};</li>
 *   <li>the same row: whoever changed it since wrote after the plugin's copy (a value set by hand in the
 *       database, an upgrade script), so the row wins, {@link Action#ADOPT_LIVE}, unless both agree,
 *       {@link Action#IN_SYNC};</li>
 *   <li>another row: it was created since the copy, without the admin (an admin's change is heard and copied with
 *       the row's identity), so the copy wins, {@link Action#RESTORE}, unless both agree already.</li>
 * </ul>
 */
public final class ConfigBackupRule {

    /** What to do with one config value at the plugin's start. */
    public enum Action {
        /** the platform's row and the copy agree */
        IN_SYNC,
        /** write the copy's value back through the platform's own config API */
        RESTORE,
        /** the platform's row is newer than the copy: keep it, and copy it */
        ADOPT_LIVE,
        /** the resource the value overrode is gone: drop the copy */
        FORGET
    }

    private ConfigBackupRule() {
    }

    /**
     * @param copiedValue    the value in the plugin's copy
     * @param copiedRow      the platform row the copy was read from
     * @param liveValue      the platform's value now (null when it has no row)
     * @param liveRow        the platform's row now (null when it has none)
     * @param resourceExists false when the copy overrides a resource that no longer exists
     */
    public static Action decide(String copiedValue, String copiedRow, String liveValue, String liveRow, boolean resourceExists) {
        if (!resourceExists) return Action.FORGET;
        if (liveRow == null) return Action.RESTORE;
        boolean same = copiedValue.equals(liveValue);
        if (liveRow.equals(copiedRow)) return same ? Action.IN_SYNC : Action.ADOPT_LIVE;
        return same ? Action.ADOPT_LIVE : Action.RESTORE;
    }
}
