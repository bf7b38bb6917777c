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
 * same window are counted apart, as context. The read-back the module runs after an operation, on another thread once
 * the host answers (IoModeReadBack, HostShell's answer), is not the operation's cost: its statements are counted apart
 * too ({@link Window#readBack}), by the same stack test.
 */
class ModuleSqlCounter {
    static final String MODULE_PACKAGE = "org.zstack.aio."
    /** the classes on a read-back's stack: its own thread, and the host's answer */
    static final List<String> READ_BACK_CLASSES = ["org.zstack.aio.zstack.IoModeReadBack", "org.zstack.aio.zstack.HostShell"]

    /**
     * What a window saw: the module's statements (SQL text, in order), the read-back's that ran meanwhile, and how many
     * statements ran in all.
     */
    static class Window {
        final List<String> module
        final List<String> readBack
        final int all

        Window(List<String> module, List<String> readBack, int all) {
            this.module = module
            this.readBack = readBack
            this.all = all
        }
    }

    private final DatasourceConnectionProviderImpl hibernate
    private final DatabaseFacadeImpl dbf
    private final DataSource original
    private final List<String> moduleSql = Collections.synchronizedList([])
    private final List<String> readBackSql = Collections.synchronizedList([])
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
        readBackSql.clear()
        all.set(0)
        counting = true
        try {
            c()
        } finally {
            counting = false
            hibernate.dataSource = original
            dbf.dataSource = original
        }
        return new Window(new ArrayList<String>(moduleSql), new ArrayList<String>(readBackSql), all.get())
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
        if (stack.any { e -> READ_BACK_CLASSES.any { e.className.startsWith(it) } }) {
            readBackSql.add(sql)
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
