package org.zstack.aio.decision;

import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core loads on Java 8 (ZStack's JVM): the build compiles it with {@code --release 8}, which also rejects any
 * API newer than Java 8; this checks what came out, class file by class file (major version 52 is Java 8). The
 * multi-release copy for Java 17 (META-INF/versions/17, major version 61) holds the same classes.
 */
class Java8BytecodeTest {

    @Test
    void everyClassOfTheCoreIsJava8Bytecode() throws IOException, URISyntaxException {
        Path classes = Path.of(IoModeDecider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path java17 = classes.resolve("META-INF/versions/17");
        List<Path> base = classFiles(classes, java17);
        assertThat(base).as("the core's classes in %s", classes).hasSizeGreaterThan(15);
        for (Path f : base) assertThat(majorVersion(f)).as("class file version of %s", f).isEqualTo(52);
        List<Path> versioned = classFiles(java17, null);
        assertThat(versioned.stream().map(java17::relativize).map(Path::toString))
                .containsExactlyInAnyOrderElementsOf(base.stream().map(classes::relativize).map(Path::toString).toList());
        for (Path f : versioned) assertThat(majorVersion(f)).as("class file version of %s", f).isEqualTo(61);
    }

    private static List<Path> classFiles(Path root, Path except) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(".class") && (except == null || !p.startsWith(except))).toList();
        }
    }

    private static int majorVersion(Path classFile) throws IOException {
        try (InputStream in = Files.newInputStream(classFile); DataInputStream data = new DataInputStream(in)) {
            assertThat(data.readInt()).isEqualTo(0xCAFEBABE);
            data.readUnsignedShort(); // minor
            return data.readUnsignedShort();
        }
    }
}
