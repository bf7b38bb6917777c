package org.zstack.test.integration.aio

import org.hibernate.engine.jdbc.connections.internal.DatasourceConnectionProviderImpl
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider
import org.hibernate.engine.spi.SessionFactoryImplementor
import org.zstack.core.Platform
import org.zstack.core.db.DatabaseFacade
import org.zstack.core.db.DatabaseFacadeImpl

import javax.persistence.EntityManagerFactory
import javax.sql.DataSource
import java.lang.reflect.InvocationHandler
import java.lang.reflect.InvocationTargetException
import java.lang.reflect.Method
import java.lang.reflect.Proxy
import java.sql.CallableStatement
import java.sql.Connection
import java.sql.PreparedStatement
import java.sql.Statement
import java.util.concurrent.atomic.AtomicInteger

/**
 * Counts the SQL statements plugin-aio's code sends to the database, at the JDBC level: while installed, the
 * connections Hibernate (ZStack's Q, SQL, tags, resource configs) and the facade's data source (the module's plain
 * SQL) hand out are wrapped, and each statement executed is counted for the module when a class of plugin-aio
 * (org.zstack.aio.*) is on the executing thread's stack. So what is counted is what reached the driver, whichever
 * ZStack API the module went through, not a number the module keeps itself. Statements of every other caller in the
 * same window are counted apart, as context. The module's work that no start asks for, and that only happens to run
 * in a window on another thread (workload sampling, the listener that reads a host's facts again after a probe or
 * benchmark event, the read-back after an operation once the host answers: IoModeReadBack, HostShell's answer), is
 * listed apart ({@link Window#offPath}) by the class on the stack, never hidden.
 */
class ModuleSqlCounter {
    static final String MODULE_PACKAGE = "org.zstack.aio."
    /** The module's classes whose statements are off any start's path: periodic sampling and the event listener. */
    static final List<String> OFF_START_PATH = ["org.zstack.aio.zstack.AioWorkloadSampler", "org.zstack.aio.zstack.AioIoFactsChanges",
                                                "org.zstack.aio.zstack.IoModeReadBack", "org.zstack.aio.zstack.HostShell"]

    /**
     * What a window saw: the module's statements on the start's path (SQL text, in order), the module's statements off
     * it ({@link #OFF_START_PATH}), and how many statements ran in all.
     */
    static class Window {
        final List<String> module
        final List<String> offPath
        final int all

        Window(List<String> module, List<String> offPath, int all) {
            this.module = module
            this.offPath = offPath
            this.all = all
        }
    }

    private final DatasourceConnectionProviderImpl hibernate
    private final DatabaseFacadeImpl dbf
    private final DataSource original
    private final List<String> moduleSql = Collections.synchronizedList([])
    private final List<String> offPathSql = Collections.synchronizedList([])
    private final AtomicInteger all = new AtomicInteger()
    private volatile boolean counting

    ModuleSqlCounter() {
        dbf = (DatabaseFacadeImpl) Platform.getComponentLoader().getComponent(DatabaseFacade.class)
        EntityManagerFactory emf = dbf.entityManager.entityManagerFactory
        ConnectionProvider p = emf.unwrap(SessionFactoryImplementor.class).serviceRegistry.getService(ConnectionProvider.class)
        assert p instanceof DatasourceConnectionProviderImpl: "Hibernate's connections do not come from a data source here (${p.class}): nothing to count through"
        hibernate = (DatasourceConnectionProviderImpl) p
        original = dbf.dataSource
        assert hibernate.dataSource.is(original): "Hibernate and the facade use different data sources"
    }

    /** Runs {@code c} with the statements counted; the counting data source is in place only meanwhile. */
    Window count(Closure c) {
        DataSource counted = (DataSource) wrap(original, DataSource.class, null)
        hibernate.dataSource = counted
        dbf.dataSource = counted
        moduleSql.clear()
        offPathSql.clear()
        all.set(0)
        counting = true
        try {
            c()
        } finally {
            counting = false
            hibernate.dataSource = original
            dbf.dataSource = original
        }
        return new Window(new ArrayList<String>(moduleSql), new ArrayList<String>(offPathSql), all.get())
    }

    /** A proxy of a JDBC object that wraps what it hands out (connections, statements) and counts executions. */
    private Object wrap(Object target, Class iface, String sql) {
        return Proxy.newProxyInstance(ModuleSqlCounter.class.classLoader, [iface] as Class[], { Object proxy, Method m, Object[] args ->
            if (m.name == "equals") return args[0].is(proxy) || target == args[0]
            if (m.name.startsWith("execute") && counting && target instanceof Statement) {
                executed(sql != null ? sql : (args != null && args.length > 0 && args[0] instanceof String ? (String) args[0] : m.name))
            }
            Object r
            try {
                r = m.invoke(target, args)
            } catch (InvocationTargetException e) {
                throw e.cause
            }
            if (m.name == "getConnection" && r instanceof Connection) return wrap(r, Connection.class, null)
            if (m.name == "createStatement") return wrap(r, Statement.class, null)
            if (m.name == "prepareStatement") return wrap(r, PreparedStatement.class, (String) args[0])
            if (m.name == "prepareCall") return wrap(r, CallableStatement.class, (String) args[0])
            return r
        } as InvocationHandler)
    }

    private void executed(String sql) {
        all.incrementAndGet()
        StackTraceElement[] stack = Thread.currentThread().stackTrace
        if (stack.any { StackTraceElement e -> OFF_START_PATH.any { e.className.startsWith(it) } }) {
            offPathSql.add(sql)
            return
        }
        for (StackTraceElement e : stack) {
            if (e.className.startsWith(MODULE_PACKAGE)) {
                moduleSql.add(sql)
                return
            }
        }
    }
}
