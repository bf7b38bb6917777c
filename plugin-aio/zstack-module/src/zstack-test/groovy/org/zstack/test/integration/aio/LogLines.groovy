package org.zstack.test.integration.aio

import org.apache.logging.log4j.LogManager
import org.apache.logging.log4j.core.LogEvent
import org.apache.logging.log4j.core.Logger
import org.apache.logging.log4j.core.appender.AbstractAppender

/** The lines one class logs (through ZStack's CLogger, which is Log4j 2), while attached. */
class LogLines extends AbstractAppender {
    final List<String> lines = Collections.synchronizedList([])
    private final Logger logger

    LogLines(String className) {
        super("aio-test-" + UUID.randomUUID().toString(), null, null)
        logger = (Logger) LogManager.getLogger(className)
        start()
        logger.addAppender(this)
    }

    @Override
    void append(LogEvent e) {
        lines.add(e.message.formattedMessage)
    }

    void detach() {
        logger.removeAppender(this)
        stop()
    }
}
