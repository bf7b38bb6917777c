package org.zstack.test.integration.aio

import org.apache.logging.log4j.Level
import org.apache.logging.log4j.LogManager
import org.apache.logging.log4j.core.LogEvent
import org.apache.logging.log4j.core.LoggerContext
import org.apache.logging.log4j.core.appender.AbstractAppender
import org.apache.logging.log4j.core.config.LoggerConfig
import org.apache.logging.log4j.core.config.Property

/**
 * The management node's own log (log4j2) while a case sends requests: every event at WARN or above, with its logger
 * and throwable, so a case can tell ZStack's ordinary refusals from an exception its requests caused.
 */
class AioLogWatch extends AbstractAppender {
    static final String NAME = "aio-log-watch"

    /** One logged event: logger, level, message (cut), the throwable's class or null. */
    static class Seen {
        String logger
        String level
        String message
        String throwable
        /** the throwable's own message (cut): ZStack logs its error codes there */
        String thrownMessage

        @Override
        String toString() {
            return "${level} ${logger}: ${message}${throwable ? ' [' + throwable + ']' : ''}"
        }
    }

    final List<Seen> seen = Collections.synchronizedList([])
    private final List<LoggerConfig> attached = []

    AioLogWatch() {
        super(NAME, null, null, true, Property.EMPTY_ARRAY)
    }

    @Override
    void append(LogEvent e) {
        if (!e.level.isMoreSpecificThan(Level.WARN)) return
        String m = e.message?.formattedMessage ?: ""
        seen.add(new Seen(logger: e.loggerName, level: e.level.name(), message: m.length() > 400 ? m.substring(0, 400) + "…" : m,
                throwable: e.thrown?.getClass()?.name, thrownMessage: e.thrown?.message?.take(400)))
    }

    /** Attached to the root logger and every logger that does not pass its events up to it. */
    AioLogWatch attach() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false)
        start()
        def configs = [ctx.configuration.rootLogger] + ctx.configuration.loggers.values().findAll { !it.additive }
        configs.unique().each { LoggerConfig lc ->
            lc.addAppender(this, Level.WARN, null)
            attached.add(lc)
        }
        ctx.updateLoggers()
        return this
    }

    void detach() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false)
        attached.each { it.removeAppender(NAME) }
        ctx.updateLoggers()
        stop()
    }
}
