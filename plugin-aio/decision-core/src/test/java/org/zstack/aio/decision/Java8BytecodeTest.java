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
 * API newer than Java 8; this checks what came out, class file by class file (major version 52 is Java 8).
 */
class Java8BytecodeTest {

    @Test
    void everyClassOfTheCoreIsJava8Bytecode() throws IOException, URISyntaxException {
        Path classes = Path.of(IoModeDecider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Path> files;
        try (Stream<Path> s = Files.walk(classes)) {
            files = s.filter(p -> p.toString().endsWith(".class")).toList();
        }
        assertThat(files).as("the core's classes in %s", classes).hasSizeGreaterThan(15);
        for (Path f : files) {
            try (InputStream in = Files.newInputStream(f); DataInputStream data = new DataInputStream(in)) {
                assertThat(data.readInt()).isEqualTo(0xCAFEBABE);
                data.readUnsignedShort(); // minor
                assertThat(data.readUnsignedShort()).as("class file version of %s", f.getFileName()).isEqualTo(52);
            }
        }
    }
}
