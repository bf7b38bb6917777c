package org.zstack.aio.test.api;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.TestDatabase;

import java.sql.Connection;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boot-time sync of conf/globalConfig into GlobalConfigVO: a missing row is inserted, a value still equal to an old
 * default follows the new default, an administrator's value is kept, and a row the plugin does not define (another
 * part of the platform's, or one a release dropped) is left alone.
 */
class GlobalConfigSyncTest {

    @ParameterizedTest
    @ValueSource(strings = {"h2", "mariadb"})
    void bootSyncsDefinitionsIntoTheTable(String kind) throws Exception {
        try (TestDatabase db = TestDatabase.of(kind)) {
            RunningServer.start(db).close();
            try (Connection c = db.connect()) {
                // as if an older release had: another default for onUnsatisfied (still in use), an admin-set
                // cacheMode over an old default, a config since removed, and no allowFalloc row yet
                c.createStatement().executeUpdate(
                        "UPDATE GlobalConfigVO SET defaultValue = 'fail', value = 'fail' WHERE name = 'vm.ioMode.onUnsatisfied'");
                c.createStatement().executeUpdate(
                        "UPDATE GlobalConfigVO SET defaultValue = 'writethrough', value = 'writeback' WHERE name = 'vm.cacheMode'");
                c.createStatement().executeUpdate("DELETE FROM GlobalConfigVO WHERE name = 'vm.ioMode.native.allowFalloc'");
                c.createStatement().executeUpdate("INSERT INTO GlobalConfigVO (category, name, description, defaultValue, value)"
                                                  + " VALUES ('kvm', 'vm.obsolete', 'gone', 'x', 'y')");
            }
            RunningServer.start(db).close();
            Map<String, String[]> rows = new HashMap<>();
            try (Connection c = db.connect();
                 ResultSet rs = c.createStatement().executeQuery("SELECT name, defaultValue, value FROM GlobalConfigVO")) {
                while (rs.next()) rows.put(rs.getString(1), new String[]{rs.getString(2), rs.getString(3)});
            }
            assertThat(rows).containsOnlyKeys("vm.ioMode", "vm.ioMode.onUnsatisfied", "vm.ioMode.native.allowFalloc", "vm.cacheMode",
                    "vm.obsolete", "ping.interval", "vm.workload.sampleInterval", "vm.workload.halfLife");
            assertThat(rows.get("ping.interval")).as("host/ping.interval (conf/globalConfig/host.yaml)").containsExactly("10", "10");
            assertThat(rows.get("vm.workload.sampleInterval")).as("kvm/vm.workload.sampleInterval").containsExactly("60", "60");
            assertThat(rows.get("vm.workload.halfLife")).as("kvm/vm.workload.halfLife").containsExactly("3600", "3600");
            assertThat(rows.get("vm.obsolete")).as("not the plugin's to delete").containsExactly("x", "y");
            assertThat(rows.get("vm.ioMode.onUnsatisfied")).containsExactly("fallback", "fallback");
            assertThat(rows.get("vm.cacheMode")).containsExactly("none", "writeback");
            assertThat(rows.get("vm.ioMode.native.allowFalloc")).containsExactly("false", "false");
            assertThat(rows.get("vm.ioMode")).containsExactly("threads", "threads");
        }
    }
}
