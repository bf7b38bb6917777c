package org.zstack.aio.server.db;

import com.zaxxer.hikari.HikariDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import org.zstack.aio.db.DatabaseSettings;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the whole connection pool on one database node. With {@code jdbc:mariadb:sequential://n1,n2,n3/db} every new
 * connection goes to the first node that answers, but connections already open stay where they are: after a failover
 * and the first node's return, one pool would span two Galera nodes and its own transactions would fail each other's
 * certification. So: a broken connection evicts every pooled connection (they are reopened on the node that answers
 * now), and every {@code aio.db.home-check} interval a fresh, unpooled connection tells which node new connections
 * reach; when that changed, the pool is evicted again and moves there as a whole. Only for multi-host URLs.
 */
@Component
public class PoolHome implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(PoolHome.class);
    static final long CHECK_SECONDS = 5;

    private final HikariDataSource pool;
    private final DatabaseSettings db;
    private final ScheduledExecutorService checker;
    private volatile String home;

    public PoolHome(DataSource dataSource, DatabaseSettings db) {
        this.pool = dataSource instanceof HikariDataSource h ? h : null;
        this.db = db;
        if (pool != null && multiHost(db.url())) {
            checker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "aio-db-pool-home");
                t.setDaemon(true);
                return t;
            });
            checker.scheduleWithFixedDelay(this::check, CHECK_SECONDS, CHECK_SECONDS, TimeUnit.SECONDS);
        } else {
            checker = null;
        }
    }

    static boolean multiHost(String url) {
        if (url == null || !url.startsWith("jdbc:mariadb:")) return false;
        int hosts = url.indexOf("//");
        int path = hosts < 0 ? -1 : url.indexOf('/', hosts + 2);
        return hosts >= 0 && url.substring(hosts + 2, path < 0 ? url.length() : path).contains(",");
    }

    /** The connection broke: evict every pooled connection so the pool reopens, as a whole, where it can. */
    public void moveAway() {
        if (pool != null && pool.getHikariPoolMXBean() != null) {
            pool.getHikariPoolMXBean().softEvictConnections();
        }
    }

    /** The node new connections reach, e.g. "db1:3306"; null when none answers. */
    String whereNewConnectionsGo() {
        try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT CONCAT(@@hostname, ':', @@port)")) {
            return rs.next() ? rs.getString(1) : null;
        } catch (Exception e) {
            return null;
        }
    }

    void check() {
        String now = whereNewConnectionsGo();
        if (now == null) return;
        String before = home;
        home = now;
        if (before != null && !before.equals(now)) {
            log.info("new database connections now reach {} (was {}): moving the whole pool there", now, before);
            moveAway();
        }
    }

    @Override
    public void destroy() {
        if (checker != null) checker.shutdownNow();
    }
}
