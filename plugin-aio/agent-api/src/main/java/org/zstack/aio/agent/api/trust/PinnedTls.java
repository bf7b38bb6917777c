package org.zstack.aio.agent.api.trust;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;

/**
 * A client TLS context that trusts exactly one certificate, named by its SHA-256: the agent's self-signed one
 * from its enrollment token. It replaces both the CA chain and the host name check (an agent is reached by IP
 * and has no CA-issued certificate); being an {@link X509ExtendedTrustManager}, JSSE does no endpoint
 * identification of its own on top.
 */
public final class PinnedTls {

    private PinnedTls() {
    }

    public static SSLContext clientContext(byte[] certSha256) {
        try {
            SSLContext ctx = SSLContext.getInstance("TLSv1.3");
            ctx.init(null, new javax.net.ssl.TrustManager[]{new Pin(certSha256.clone())}, null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK offers no TLSv1.3: " + e.getMessage(), e);
        }
    }

    public static byte[] sha256(byte[] der) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(der);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final class Pin extends X509ExtendedTrustManager {
        private final byte[] expected;

        Pin(byte[] expected) {
            this.expected = expected;
        }

        private void check(X509Certificate[] chain) throws CertificateException {
            if (chain == null || chain.length == 0) {
                throw new CertificateException("the agent presented no certificate");
            }
            byte[] got = sha256(chain[0].getEncoded());
            if (!MessageDigest.isEqual(got, expected)) {
                throw new CertificateException("the agent's certificate (sha256 " + HexFormat.of().formatHex(got)
                        + ") is not the enrolled one (sha256 " + HexFormat.of().formatHex(expected) + ")");
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("this context is for clients only");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            throw new CertificateException("this context is for clients only");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            throw new CertificateException("this context is for clients only");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
