package org.zstack.aio.server.tracker;

import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/** The tracker's periodic work (host pings, lease renewals) runs on Spring's scheduler. */
@Configuration
@EnableScheduling
class TrackerScheduling {
}
