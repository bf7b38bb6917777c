package org.zstack.aio.server.query;

import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

import java.lang.reflect.Method;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lets a list endpoint take a {@link QueryRequest} parsed from its query string. The handler's own
 * {@code @RequestParam}s are the list's named parameters; any other parameter is refused (400).
 */
@Component
public class QueryRequestResolver implements HandlerMethodArgumentResolver {

    private static final ParameterNameDiscoverer NAMES = new DefaultParameterNameDiscoverer();
    /** Each handler's named parameters, read once (reflection on every list call would be waste). */
    private final Map<Method, Set<String>> named = new ConcurrentHashMap<>();

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == QueryRequest.class;
    }

    @Override
    public Object resolveArgument(MethodParameter parameter, ModelAndViewContainer mav, NativeWebRequest request,
                                  WebDataBinderFactory binderFactory) {
        return QueryRequest.parse(request.getParameterMap(),
                named.computeIfAbsent(parameter.getMethod(), QueryRequestResolver::namedParameters));
    }

    static Set<String> namedParameters(Method handler) {
        Set<String> out = new HashSet<>();
        for (int i = 0; i < handler.getParameterCount(); i++) {
            MethodParameter p = new MethodParameter(handler, i);
            RequestParam rp = p.getParameterAnnotation(RequestParam.class);
            if (rp == null) continue;
            p.initParameterNameDiscovery(NAMES);
            out.add(!rp.name().isEmpty() ? rp.name() : p.getParameterName());
        }
        return Set.copyOf(out);
    }
}
