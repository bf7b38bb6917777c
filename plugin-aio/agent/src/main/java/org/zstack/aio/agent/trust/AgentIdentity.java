package org.zstack.aio.agent.trust;

import org.zstack.aio.agent.api.trust.AgentAuth;
import org.zstack.aio.agent.api.trust.EnrollmentToken;
import org.zstack.aio.agent.api.trust.PinnedTls;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.time.Instant;
import java.util.Base64;

/**
 * The agent's credentials under its data dir, created on first start, each file mode 0600:
 * <ul>
 * <li>{@code agent-key.p12}: its private key and self-signed certificate (the TLS identity the server pins);</li>
 * <li>{@code agent-secret}: 32 random bytes, what the server must present on every call;</li>
 * <li>{@code agent-enrollment}: the enrollment token (fingerprint + secret), one line, for the operator.</li>
 * </ul>
 * Rotating replaces the secret and the token; a running agent picks the new secret up at its next request
 * (the file's modification time is checked on every request), so servers enrolled with the old token are
 * refused from then on and VMs keep running.
 */
public final class AgentIdentity {

    public static final String KEY_FILE = "agent-key.p12";
    public static final String SECRET_FILE = "agent-secret";
    public static final String TOKEN_FILE = "agent-enrollment";
    /** The key store sits in a 0600 file; a password stored beside it would protect nothing more. */
    private static final char[] STORE_PASSWORD = "aio-agent".toCharArray();
    private static final String ALIAS = "agent";

    private final Path dir;
    private final SSLContext sslContext;
    private final byte[] certSha256;
    private volatile Secret secret;

    private record Secret(byte[] bytes, FileTime modified) {
    }

    private AgentIdentity(Path dir, SSLContext sslContext, byte[] certSha256, Secret secret) {
        this.dir = dir;
        this.sslContext = sslContext;
        this.certSha256 = certSha256;
        this.secret = secret;
    }

    /** Loads the credentials from {@code dataDir}, creating them (and the token file) when absent. */
    public static synchronized AgentIdentity loadOrCreate(Path dataDir) {
        try {
            Path dir = dataDir.toAbsolutePath().normalize();
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            KeyStore store = loadOrCreateKeyStore(dir.resolve(KEY_FILE));
            Certificate cert = store.getCertificate(ALIAS);
            byte[] sha = PinnedTls.sha256(cert.getEncoded());
            Path secretFile = dir.resolve(SECRET_FILE);
            if (!Files.exists(secretFile)) {
                writeSecret(dir, sha, random(32));
            } else if (!Files.exists(dir.resolve(TOKEN_FILE))) {
                writePrivate(dir.resolve(TOKEN_FILE), (token(sha, readSecret(secretFile), null) + "\n").getBytes());
            }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, STORE_PASSWORD);
            SSLContext ctx = SSLContext.getInstance("TLSv1.3");
            ctx.init(kmf.getKeyManagers(), null, null);
            return new AgentIdentity(dir, ctx, sha, new Secret(readSecret(secretFile), Files.getLastModifiedTime(secretFile)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create the agent's credentials under " + dataDir + ": "
                    + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot load the agent's key store under " + dataDir + ": " + e.getMessage(), e);
        }
    }

    /** A new secret and token; servers enrolled with the old token must be re-enrolled with the new one. */
    public static synchronized String rotate(Path dataDir) {
        AgentIdentity id = loadOrCreate(dataDir);
        writeSecret(id.dir, id.certSha256, random(32));
        return loadOrCreate(dataDir).token();
    }

    /** The enrollment token as written to {@code agent-enrollment}. */
    public String token() {
        return token(certSha256, current().bytes(), null);
    }

    /** A token that may be used to enroll only until {@code expiresAt} (same certificate and secret). */
    public String token(Instant expiresAt) {
        return token(certSha256, current().bytes(), expiresAt);
    }

    public SSLContext sslContext() {
        return sslContext;
    }

    public byte[] certSha256() {
        return certSha256.clone();
    }

    public Path tokenFile() {
        return dir.resolve(TOKEN_FILE);
    }

    /** Whether an Authorization header carries this agent's current secret. */
    public boolean accepts(String authorization) {
        return AgentAuth.matches(authorization, current().bytes());
    }

    private Secret current() {
        Path file = dir.resolve(SECRET_FILE);
        Secret s = secret;
        try {
            FileTime modified = Files.getLastModifiedTime(file);
            if (!modified.equals(s.modified())) {
                s = new Secret(readSecret(file), modified);
                secret = s;
            }
        } catch (IOException e) {
            // the file vanished or is unreadable: keep the secret already loaded rather than lock the server out
        }
        return s;
    }

    private static String token(byte[] sha, byte[] secret, Instant expiresAt) {
        return new EnrollmentToken(sha, secret, expiresAt).encode();
    }

    private static KeyStore loadOrCreateKeyStore(Path file) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        if (Files.exists(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                store.load(in, STORE_PASSWORD);
            }
            return store;
        }
        SelfSignedCertificate.Generated g = SelfSignedCertificate.generate("aio-agent");
        store.load(null, null);
        store.setKeyEntry(ALIAS, g.keys().getPrivate(), STORE_PASSWORD, new Certificate[]{g.certificate()});
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        store.store(out, STORE_PASSWORD);
        writePrivate(file, out.toByteArray());
        return store;
    }

    private static void writeSecret(Path dir, byte[] sha, byte[] secret) {
        try {
            writePrivate(dir.resolve(SECRET_FILE), (Base64.getUrlEncoder().withoutPadding().encodeToString(secret) + "\n")
                    .getBytes());
            writePrivate(dir.resolve(TOKEN_FILE), (token(sha, secret, null) + "\n").getBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the agent's secret under " + dir + ": " + e.getMessage(), e);
        }
    }

    private static byte[] readSecret(Path file) throws IOException {
        return Base64.getUrlDecoder().decode(Files.readString(file).strip());
    }

    /** Written to a 0600 temporary file first, then moved in place: never readable by others, never half-written. */
    private static void writePrivate(Path file, byte[] content) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException e) {
            throw new IOException("another process is writing " + file, e);
        }
        try (OutputStream out = Files.newOutputStream(tmp)) {
            out.write(content);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        new SecureRandom().nextBytes(b);
        return b;
    }
}
