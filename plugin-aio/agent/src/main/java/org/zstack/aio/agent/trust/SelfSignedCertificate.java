package org.zstack.aio.agent.trust;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/**
 * The agent's own key (EC P-256: fast handshakes) and a self-signed certificate for it, built with Bouncy Castle.
 * Nobody validates it against a CA: the server pins its SHA-256 from the enrollment token, so the validity is
 * long and the name is only a label.
 */
final class SelfSignedCertificate {

    private static final Duration VALIDITY = Duration.ofDays(3650);

    record Generated(KeyPair keys, X509Certificate certificate) {
    }

    private SelfSignedCertificate() {
    }

    static Generated generate(String label) {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            KeyPair keys = gen.generateKeyPair();
            X500Name name = new X500Name("CN=" + label.replaceAll("[^A-Za-z0-9 ._-]", "_"));
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, new BigInteger(127, new SecureRandom()),
                    Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(VALIDITY)), name, keys.getPublic());
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            X509Certificate cert = new JcaX509CertificateConverter()
                    .getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
            return new Generated(keys, cert);
        } catch (GeneralSecurityException | OperatorCreationException | java.io.IOException e) {
            throw new IllegalStateException("cannot create the agent's certificate: " + e.getMessage(), e);
        }
    }
}
