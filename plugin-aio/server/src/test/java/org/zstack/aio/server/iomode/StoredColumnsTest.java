package org.zstack.aio.server.iomode;

import org.junit.jupiter.api.Test;
import org.zstack.aio.plugin.DecisionRecord;

import java.lang.reflect.Field;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** This server stores every column of the record both platforms store (the ZStack module's table: ConfigTableAgreementTest). */
class StoredColumnsTest {

    @Test
    void theServersDecisionRowHasEveryColumnOfTheCoresRecord() {
        assertThat(Arrays.stream(VolumeIoModeDecisionVO.class.getDeclaredFields()).map(Field::getName).toList())
                .containsAll(DecisionRecord.STORED_COLUMNS);
    }
}
