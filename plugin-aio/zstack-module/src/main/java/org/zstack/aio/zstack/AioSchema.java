package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.core.db.DatabaseFacade;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether the module's tables are in ZStack's database. They are created by the module's upgrade scripts
 * (db/upgrade/V5.2.1.100-104), which run only through {@code zstack-ctl upgrade_db}; a node started before that has
 * none of them, and ZStack does not guard its KVM extension points: a hot-plug whose extension throws fails inside
 * the agent callback. So the module checks once when it starts (upgrade_db needs the node stopped, so the answer holds
 * until the next start), says so in one sentence naming the command, and its hooks leave every disk to ZStack's stock
 * behaviour, saying that once too.
 */
public final class AioSchema {
    private static final CLogger logger = Utils.getLogger(AioSchema.class);

    /** Every table the module reads or writes, in the order its scripts create them. */
    static final List<String> TABLES = Collections.unmodifiableList(Arrays.asList(IoModeDecisionStore.TABLE,
            HostIoFactsStore.TABLE, ConfigBackupStore.TABLE, ManagementNodeStore.TABLE,
            RefusedIoModeStore.TABLE, BenchmarkStore.TABLE, WorkloadStore.TABLE));

    private final JdbcTemplate jdbc;
    private volatile List<String> missing = Collections.emptyList();
    private final AtomicBoolean leftToStockSaid = new AtomicBoolean();

    public AioSchema(DatabaseFacade dbf) {
        this.jdbc = new JdbcTemplate(dbf.getDataSource());
    }

    /** Looks the tables up (one query) and logs the boot sentence when some are missing; the sentence, or null. */
    String check() {
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < TABLES.size(); i++) in.append(i == 0 ? "?" : ", ?");
        List<String> present = jdbc.queryForList("SELECT table_name FROM information_schema.tables"
                + " WHERE table_schema = DATABASE() AND table_name IN (" + in + ")", String.class, TABLES.toArray());
        List<String> absent = new ArrayList<>();
        for (String t : TABLES) {
            boolean found = false;
            for (String p : present) found |= p.equalsIgnoreCase(t);
            if (!found) absent.add(t);
        }
        missing = Collections.unmodifiableList(absent);
        leftToStockSaid.set(false);
        if (absent.isEmpty()) return null;
        String sentence = bootSentence(absent);
        logger.warn(sentence);
        return sentence;
    }

    static String bootSentence(List<String> absent) {
        return "plugin-aio: ZStack's database has no table " + String.join(", ", absent) + ": the module's upgrade"
                + " scripts have not run; stop this management node, run `zstack-ctl upgrade_db`, then start it again."
                + " Until then every VM start and hot-plug leaves its disks to ZStack's stock io mode and nothing is stored.";
    }

    boolean ready() {
        return missing.isEmpty();
    }

    List<String> missing() {
        return missing;
    }

    /**
     * For a hook that is about to do nothing: true when the tables are there; otherwise false, and the first such
     * call after a check logs one sentence naming the operation.
     */
    boolean readyFor(String operation) {
        if (ready()) return true;
        if (leftToStockSaid.compareAndSet(false, true)) {
            logger.warn(String.format("plugin-aio: %s left to ZStack's stock io mode: the module's tables (%s) are"
                    + " missing; run `zstack-ctl upgrade_db` (said once until the node restarts)", operation,
                    String.join(", ", missing)));
        }
        return false;
    }
}
