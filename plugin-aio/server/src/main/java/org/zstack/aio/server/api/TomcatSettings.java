package org.zstack.aio.server.api;

import org.apache.catalina.core.StandardHost;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * Tomcat answers its own refusals through {@link JsonErrorReportValve}; TRACE reaches {@link RequestLimits}, which
 * refuses it with the contract's body (Tomcat's own refusal has an empty one).
 */
@Component
class TomcatSettings implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(JsonErrorReportValve.class.getName());
            }
        });
        factory.addConnectorCustomizers(connector -> connector.setAllowTrace(true));
    }
}
