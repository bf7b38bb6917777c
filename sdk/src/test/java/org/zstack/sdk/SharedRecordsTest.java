package org.zstack.sdk;

import org.junit.jupiter.api.Test;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.StorageIoFacts;

import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One SDK record per idea: {@code VolumeIoModeDecisionInventory} (sdk/src/shared, compiled into this SDK and the ZStack
 * module's) has exactly the properties of the core's DecisionRecord, the view both platforms return, and so do its
 * nested records; {@code HostIoFactsInventory} has those of the one host-facts contract, HostIoFacts.
 */
class SharedRecordsTest {

    @Test
    void theDecisionRecordHasTheCoresFields() throws Exception {
        assertSameNames(VolumeIoModeDecisionInventory.class, DecisionRecord.class);
        assertSameNames(IoModeCheckInventory.class, DecisionRecord.CheckRecord.class);
        assertSameNames(IoAttemptInventory.class, DecisionRecord.AttemptRecord.class);
        assertSameNames(VolumeWorkloadInventory.class, DecisionRecord.WorkloadRecord.class);
    }

    @Test
    void theHostFactsHaveTheContractsFields() throws Exception {
        assertSameNames(HostIoFactsInventory.class, HostIoFacts.class);
        assertSameNames(StorageIoFactsInventory.class, StorageIoFacts.class);
    }

    private static void assertSameNames(Class<?> sdk, Class<?> core) throws Exception {
        List<String> fields = Arrays.stream(sdk.getDeclaredFields()).filter(f -> Modifier.isPublic(f.getModifiers()))
                .map(Field::getName).toList();
        List<String> props = Arrays.stream(Introspector.getBeanInfo(core, Object.class).getPropertyDescriptors())
                .map(PropertyDescriptor::getName).toList();
        assertThat(fields).as("public fields of %s", sdk.getName()).containsExactlyInAnyOrderElementsOf(props);
    }
}
