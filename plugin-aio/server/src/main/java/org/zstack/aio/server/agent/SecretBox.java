package org.zstack.aio.server.agent;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Seals agent secrets for the database with AES-256-GCM (the JDK's), under a key in
 * {@code <AIO_DATA_DIR>/agent-credentials.key} (mode 0600, created on first use). A database dump or backup
 * alone therefore does not let anyone command the agents; the key file must be kept (and copied to every
 * management node sharing the database).
 */
@Component
public class SecretBox {

    public static final String KEY_FILE = "agent-credentials.key";
    private static final int IV = 12;

    private final SecretKey key;
    private final SecureRandom random = new SecureRandom();

    public SecretBox(@Value("${AIO_DATA_DIR:./data}") String dataDir) {
        this.key = loadOrCreate(Path.of(dataDir).toAbsolutePath().normalize().resolve(KEY_FILE));
    }

    public String seal(byte[] plain) {
        try {
            byte[] iv = new byte[IV];
            random.nextBytes(iv);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
            byte[] sealed = c.doFinal(plain);
            return Base64.getEncoder().encodeToString(ByteBuffer.allocate(IV + sealed.length).put(iv).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot seal an agent secret: " + e.getMessage(), e);
        }
    }

    /** @throws IllegalStateException when the value was sealed with another key (data dir replaced) */
    public byte[] open(String sealed) {
        try {
            byte[] raw = Base64.getDecoder().decode(sealed);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, raw, 0, IV));
            return c.doFinal(raw, IV, raw.length - IV);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("a stored agent secret cannot be opened with " + KEY_FILE
                    + " (was the server's data dir replaced?)", e);
        }
    }

    private static SecretKey loadOrCreate(Path file) {
        try {
            if (!Files.exists(file)) {
                Files.createDirectories(file.getParent());
                KeyGenerator g = KeyGenerator.getInstance("AES");
                g.init(256);
                byte[] k = g.generateKey().getEncoded();
                Path tmp = file.resolveSibling("." + KEY_FILE + ".tmp");
                Files.deleteIfExists(tmp);
                Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.write(tmp, Base64.getEncoder().encode(k));
                try {
                    Files.createLink(file, tmp); // fails if another server process created it meanwhile
                } catch (FileAlreadyExistsException e) {
                    // theirs wins; ours was never used
                } finally {
                    Files.deleteIfExists(tmp);
                }
            }
            return new SecretKeySpec(Base64.getDecoder().decode(Files.readString(file).strip()), "AES");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create " + file + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
