package org.zstack.aio.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both platforms declare the io-mode configs as {@link IoModeConfig} says, and store the record's columns: the
 * standalone server's conf/globalConfig/kvm.yaml; the ZStack module's globalConfig XML (generated from the table),
 * its {@code @BindResourceConfig} fields, and its decision table. A difference in a name, a value, a default, a type,
 * a description or a binding fails here, in the root build, without ZStack.
 */
class ConfigTableAgreementTest {

    private static final Path MODULE = Path.of("..", "zstack-module");

    @Test
    void theServersKvmYamlDeclaresEachConfigAsTheTable() throws IOException {
        JsonNode configs;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("conf/globalConfig/kvm.yaml")) {
            assertThat(in).as("conf/globalConfig/kvm.yaml on the classpath (aio-conf)").isNotNull();
            configs = new ObjectMapper(new YAMLFactory()).readTree(in).path("configs");
        }
        for (IoModeConfig c : IoModeConfig.ALL) {
            JsonNode y = null;
            for (JsonNode n : configs) {
                if (c.category().equals(n.path("category").asText()) && c.name().equals(n.path("name").asText())) y = n;
            }
            assertThat(y).as("kvm.yaml declares %s", c).isNotNull();
            assertThat(y.path("type").asText()).as("%s type", c).isEqualTo(c.type().yamlName());
            assertThat(y.path("defaultValue").asText()).as("%s default", c).isEqualTo(c.defaultValue());
            assertThat(texts(y.path("validValues"))).as("%s valid values", c).isEqualTo(c.validValues());
            assertThat(texts(y.path("bindResourceTypes"))).as("%s bindings", c).isEqualTo(c.bindingTypes());
            assertThat(y.path("description").asText()).as("%s description", c).isEqualTo(c.description());
        }
    }

    @Test
    void theZStackModulesXmlIsTheTableRendered() throws IOException {
        Path xml = MODULE.resolve("conf/globalConfig/aioIoMode.xml");
        String expected = ZStackGlobalConfigXml.render(IoModeConfig.ZSTACK_MODULE);
        assertThat(Files.readString(xml, StandardCharsets.UTF_8))
                .as("%s must be exactly ZStackGlobalConfigXml.render(IoModeConfig.ZSTACK_MODULE); write this into it:%n%s", xml, expected)
                .isEqualTo(expected);
    }

    /** ZStack reads bindings only from annotations, so the module writes them: they must be the table's. */
    @Test
    void theZStackModulesBindingsAreTheTables() throws IOException {
        String src = Files.readString(MODULE.resolve("src/main/java/org/zstack/aio/zstack/AioIoModeGlobalConfig.java"));
        Matcher m = Pattern.compile("((?:@\\w+(?:\\([^)]*\\))?\\s*)+)public static GlobalConfig \\w+ = new GlobalConfig\\(CATEGORY, \"([^\"]+)\"\\)")
                .matcher(src);
        List<String> declared = new ArrayList<>();
        while (m.find()) {
            IoModeConfig c = IoModeConfig.declaredByZStackModule(m.group(2));
            assertThat(c).as("the module declares %s, which the table does not have", m.group(2)).isNotNull();
            declared.add(c.name());
            List<String> bound = new ArrayList<>();
            Matcher b = Pattern.compile("@BindResourceConfig\\(\\{([^}]*)\\}\\)").matcher(m.group(1));
            if (b.find()) {
                for (String t : b.group(1).split(",")) bound.add(t.trim().replace(".class", ""));
            }
            assertThat(bound).as("the module's @BindResourceConfig of %s", c).isEqualTo(c.bindingTypes());
        }
        assertThat(declared).containsExactlyElementsOf(IoModeConfig.ZSTACK_MODULE.stream().map(IoModeConfig::name).toList());
    }

    @Test
    void theZStackModulesTableStoresEveryColumnOfTheRecord() throws IOException {
        StringBuilder sql = new StringBuilder();
        try (var files = Files.list(MODULE.resolve("conf/db/upgrade"))) {
            for (Path f : files.sorted().toList()) sql.append(Files.readString(f)).append('\n');
        }
        for (String column : DecisionRecord.STORED_COLUMNS) {
            assertThat(sql.toString()).as("the module's upgrade scripts create column %s", column).contains("`" + column + "`");
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        for (JsonNode n : array) out.add(n.asText());
        return out;
    }
}
