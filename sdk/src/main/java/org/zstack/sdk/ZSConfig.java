package org.zstack.sdk;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Immutable client settings: where the management server is and how long to wait for it.
 *
 * <pre>{@code
 * ZSConfig config = ZSConfig.builder().host("10.0.0.5").port(8080).readTimeout(Duration.ofMinutes(5)).build();
 * }</pre>
 */
public final class ZSConfig {

    private final URI baseUrl;
    private final Duration connectTimeout;
    private final Duration readTimeout;

    private ZSConfig(Builder b) {
        String url = b.baseUrl != null ? b.baseUrl : b.scheme + "://" + b.host + ":" + b.port + b.contextPath;
        while (url.endsWith("/")) url = url.substring(0, url.length() - 1);
        URI uri = URI.create(url);
        if (uri.getScheme() == null || uri.getHost() == null
            || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
            throw new IllegalArgumentException("baseUrl must be an http(s) URL such as http://127.0.0.1:8080, not '" + url + "'");
        }
        this.baseUrl = uri;
        this.connectTimeout = requirePositive(b.connectTimeout, "connectTimeout");
        this.readTimeout = requirePositive(b.readTimeout, "readTimeout");
    }

    private static Duration requirePositive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) throw new IllegalArgumentException(name + " must be positive");
        return d;
    }

    /** A config for {@code baseUrl} (e.g. {@code http://127.0.0.1:8080}) with default timeouts. */
    public static ZSConfig of(String baseUrl) {
        return builder().baseUrl(baseUrl).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The server's base URL without a trailing slash; API paths ({@code /v1/...}) are appended to it. */
    public URI getBaseUrl() {
        return baseUrl;
    }

    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    /** How long one call may take, from sending to the whole answer (starting a VM waits for the agent). */
    public Duration getReadTimeout() {
        return readTimeout;
    }

    @Override
    public String toString() {
        return "ZSConfig{" + baseUrl + ", connectTimeout=" + connectTimeout + ", readTimeout=" + readTimeout + "}";
    }

    public static final class Builder {
        private String baseUrl;
        private String scheme = "http";
        private String host = "127.0.0.1";
        private int port = 8080;
        private String contextPath = "";
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration readTimeout = Duration.ofMinutes(2);

        private Builder() {
        }

        /** The whole base URL; when set, scheme, host, port and context path are ignored. */
        public Builder baseUrl(String baseUrl) {
            this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
            return this;
        }

        public Builder scheme(String scheme) {
            this.scheme = Objects.requireNonNull(scheme, "scheme");
            return this;
        }

        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        public Builder port(int port) {
            if (port < 1 || port > 65535) throw new IllegalArgumentException("port must be 1..65535, not " + port);
            this.port = port;
            return this;
        }

        /** A prefix before {@code /v1} when the server sits behind a proxy path, e.g. {@code /aio}. */
        public Builder contextPath(String contextPath) {
            Objects.requireNonNull(contextPath, "contextPath");
            this.contextPath = contextPath.isEmpty() || contextPath.startsWith("/") ? contextPath : "/" + contextPath;
            return this;
        }

        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        public Builder readTimeout(Duration readTimeout) {
            this.readTimeout = readTimeout;
            return this;
        }

        public ZSConfig build() {
            return new ZSConfig(this);
        }
    }
}
