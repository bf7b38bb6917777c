package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ZStack module (plugin-aio/zstack-module, outside the root reactor: only ZStack's jars compile it) is adapters
 * only: ZStack's extension points hand their facts to {@link DiskIoModes} and apply its plan. None of its main
 * sources reaches the decision core's decider or builds a decision's input; the use case does. Checked on the sources
 * here, in the root build, where the module itself is never compiled.
 */
class ZStackModuleSourcesTest {

    private static final Path MAIN = Path.of("..", "zstack-module", "src", "main", "java");

    /** What deciding takes: the decider, and the input it decides on (the use case builds it from the ports). */
    private static final Pattern DECIDING = Pattern.compile(
            "\\borg\\.zstack\\.aio\\.decision\\.(IoModeDecider|DecisionInput|VolumeFacts|HostFacts)\\b"
            + "|\\bimport\\s+(static\\s+)?org\\.zstack\\.aio\\.decision\\.\\*");

    @Test
    void noModuleSourceDecides() throws IOException {
        List<Path> sources;
        try (Stream<Path> s = Files.walk(MAIN)) {
            sources = s.filter(p -> p.toString().endsWith(".java")).toList();
        }
        assertThat(sources).as("the module's main sources under %s", MAIN.toAbsolutePath().normalize()).hasSizeGreaterThan(20);
        List<String> found = new ArrayList<>();
        for (Path p : sources) {
            for (String v : violations(Files.readString(p, StandardCharsets.UTF_8))) found.add(MAIN.relativize(p) + ": " + v);
        }
        assertThat(found).as("module sources that reach the decider or its input (go through DiskIoModes)").isEmpty();
    }

    /** The rule must catch each way a source can reach them, and leave what the module may use (the decision, modes). */
    @Test
    void theRuleCatchesEveryWayIn() {
        assertThat(violations("import org.zstack.aio.decision.IoModeDecider;\n")).hasSize(1);
        assertThat(violations("import org.zstack.aio.decision.*;\n")).hasSize(1);
        assertThat(violations("import static org.zstack.aio.decision.DecisionInput.of;\n")).hasSize(1);
        assertThat(violations("  x = new org.zstack.aio.decision.HostFacts(a);\n  org.zstack.aio.decision.VolumeFacts v;\n")).hasSize(2);
        assertThat(violations("import org.zstack.aio.decision.IoModeDecision;\nimport org.zstack.aio.decision.IoMode;\n"
                + "import org.zstack.aio.plugin.HostIoFacts;\n")).isEmpty();
    }

    private static List<String> violations(String source) {
        List<String> out = new ArrayList<>();
        String[] lines = source.split("\n");
        for (int i = 0; i < lines.length; i++) {
            Matcher m = DECIDING.matcher(lines[i]);
            while (m.find()) out.add("line " + (i + 1) + ": " + m.group());
        }
        return out;
    }
}
