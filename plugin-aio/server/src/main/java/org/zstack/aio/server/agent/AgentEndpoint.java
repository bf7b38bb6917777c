package org.zstack.aio.server.agent;

import org.zstack.aio.agent.api.trust.EnrollmentToken;

import java.util.HexFormat;

/**
 * Where one agent listens and how to trust it and be trusted by it. Holds the secret: never logged,
 * never returned ({@link #toString()} leaves it out).
 */
public record AgentEndpoint(String ip, int port, byte[] certSha256, byte[] secret) {

    public static AgentEndpoint of(String ip, int port, EnrollmentToken token) {
        return new AgentEndpoint(ip, port, token.certSha256(), token.secret());
    }

    /** host:port as a URI authority (an IPv6 address in brackets). */
    public String where() {
        return (ip.indexOf(':') >= 0 ? "[" + ip + "]" : ip) + ":" + port;
    }

    public String certSha256Hex() {
        return HexFormat.of().formatHex(certSha256);
    }

    @Override
    public String toString() {
        return "AgentEndpoint[" + where() + ", cert sha256 " + certSha256Hex() + "]";
    }
}
