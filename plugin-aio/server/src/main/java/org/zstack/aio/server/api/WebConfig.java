package org.zstack.aio.server.api;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.zstack.aio.server.account.CallerArgumentResolver;
import org.zstack.aio.server.account.SessionInterceptor;

import java.util.List;

@Configuration
public class WebConfig implements WebMvcConfigurer {

    private final SessionInterceptor sessions;
    private final CallerArgumentResolver callers;

    public WebConfig(SessionInterceptor sessions, CallerArgumentResolver callers) {
        this.sessions = sessions;
        this.callers = callers;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(sessions).addPathPatterns("/v1/**").excludePathPatterns("/v1/accounts/login");
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(callers);
    }
}
