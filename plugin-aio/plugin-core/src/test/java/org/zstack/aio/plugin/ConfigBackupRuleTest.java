package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.zstack.aio.plugin.ConfigBackupRule.Action.ADOPT_LIVE;
import static org.zstack.aio.plugin.ConfigBackupRule.Action.FORGET;
import static org.zstack.aio.plugin.ConfigBackupRule.Action.IN_SYNC;
import static org.zstack.aio.plugin.ConfigBackupRule.Action.RESTORE;
import static org.zstack.aio.plugin.ConfigBackupRule.decide;

class ConfigBackupRuleTest {

    @Test
    void aRowCreatedAgainAtTheDefaultGetsTheAdminsValueBack() {
        // ZStack's boot without the module deleted GlobalConfigVO id 7; a boot with it created id 42 at the default
        assertEquals(RESTORE, decide("native", "7", "threads", "42", true));
    }

    @Test
    void aRowDeletedWithoutThePluginIsWrittenAgain() {
        assertEquals(RESTORE, decide("native", "7", null, null, true));
    }

    @Test
    void theSameRowChangedSinceTheCopyKeepsItsNewerValue() {
        assertEquals(ADOPT_LIVE, decide("native", "7", "io_uring", "7", true));
    }

    @Test
    void agreeingValuesNeedNothingOrOnlyTheNewRowsIdentity() {
        assertEquals(IN_SYNC, decide("native", "7", "native", "7", true));
        assertEquals(ADOPT_LIVE, decide("threads", "7", "threads", "42", true));
    }

    @Test
    void theCopyOfAGoneResourceIsDropped() {
        assertEquals(FORGET, decide("native", "u1", null, null, false));
        assertEquals(FORGET, decide("native", "u1", "native", "u1", false));
    }
}
