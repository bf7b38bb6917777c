package org.zstack.aio.server.account;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import java.util.List;

/** Every /v1 call but login needs a session; controllers receive the {@link Caller} it belongs to. */
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
