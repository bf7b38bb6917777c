package org.zstack.aio.plugin;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** What ZStack's agent writes per VolumeTO device type, as the module hands it to the use case. */
class ZStackDeviceTypesTest {

    @ParameterizedTest(name = "{0}: kind {1}, rebuilt as {2}, reached at start: {3}")
    @CsvSource({
            "file,    FILE,    FILE,    true",
            "block,   BLOCK,   BLOCK,   true",
            "ceph,    NETWORK, NETWORK, true",
            "cbd,     NETWORK,        , true",
            "vhost,   FILE,           , false",
            "iscsi,          ,        , false",
            "scsilun,        ,        , true",
            ",               ,        , true",
    })
    void eachDeviceTypeAsTheAgentWritesIt(String type, DiskKind kind, DiskKind rebuilt, boolean reached) {
        assertThat(ZStackDeviceTypes.kind(type)).isEqualTo(kind);
        assertThat(ZStackDeviceTypes.rebuiltAs(type)).isEqualTo(rebuilt);
        assertThat(ZStackDeviceTypes.unreachableAtStart(type) == null).isEqualTo(reached);
    }

    @ParameterizedTest
    @CsvSource({"vhost, ZStack's agent writes no <serial> for a vhost-user disk",
                "iscsi, ZStack's agent writes no <serial> for an iSCSI disk it attaches as a SCSI LUN"})
    void theUnreachableDisksSentenceNamesTheAgentAndTheDisk(String type, String sentence) {
        assertThat(ZStackDeviceTypes.unreachableAtStart(type)).isEqualTo(sentence);
    }
}
