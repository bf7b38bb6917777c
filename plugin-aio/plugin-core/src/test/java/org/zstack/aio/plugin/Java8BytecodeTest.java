package org.zstack.aio.plugin;

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

/** ZStack's management nodes run Java 8 and ship these classes: every one is class-file major version 52. */
class Java8BytecodeTest {

    @Test
    void everyClassIsJava8Bytecode() throws IOException, URISyntaxException {
        Path classes = Path.of(IoModeConfig.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Path> files;
        try (Stream<Path> s = Files.walk(classes)) {
            files = s.filter(p -> p.toString().endsWith(".class")).toList();
        }
        assertThat(files).as("classes in %s", classes).hasSizeGreaterThan(10);
        for (Path f : files) {
            try (InputStream in = Files.newInputStream(f); DataInputStream data = new DataInputStream(in)) {
                assertThat(data.readInt()).isEqualTo(0xCAFEBABE);
                data.readUnsignedShort();
                assertThat(data.readUnsignedShort()).as("class file version of %s", f).isEqualTo(52);
            }
        }
    }
}
