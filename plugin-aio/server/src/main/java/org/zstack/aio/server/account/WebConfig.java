package org.zstack.aio.server.account;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.zstack.aio.server.query.QueryRequestResolver;

import java.util.List;

/** Every /v1 call but login needs a session; controllers receive the {@link Caller} it belongs to. */
@Configuration
public class WebConfig implements WebMvcConfigurer {

    private final SessionInterceptor sessions;
    private final CallerArgumentResolver callers;
    private final QueryRequestResolver queries;

    public WebConfig(SessionInterceptor sessions, CallerArgumentResolver callers, QueryRequestResolver queries) {
        this.sessions = sessions;
        this.callers = callers;
        this.queries = queries;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        // logout: the session uuid in the path is the credential; api-jobs: the poll checks the job's owner itself
        registry.addInterceptor(sessions).addPathPatterns("/v1/**")
                .excludePathPatterns("/v1/accounts/login", "/v1/accounts/sessions/*", "/v1/api-jobs/*");
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(callers);
        resolvers.add(queries);
    }
}
