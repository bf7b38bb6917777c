package org.zstack.aio.server.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The config definitions read from conf/globalConfig/*.yaml (module aio-conf) at boot. */
@Component
public class ConfigDefinitions {

    static final String LOCATION = "classpath*:conf/globalConfig/*.yaml";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final Map<String, GlobalConfigDefinition> byIdentity;

    public ConfigDefinitions() {
        this(loadClasspath());
    }

    public ConfigDefinitions(List<GlobalConfigDefinition> definitions) {
        Map<String, GlobalConfigDefinition> m = new LinkedHashMap<>();
        for (GlobalConfigDefinition d : definitions) {
            if (!d.validValues().isEmpty() && !d.validValues().contains(d.defaultValue())) {
                throw new IllegalStateException(d.identity() + ": default " + d.defaultValue() + " is not a valid value");
            }
            if (m.put(d.identity(), d) != null) throw new IllegalStateException("config defined twice: " + d.identity());
        }
        this.byIdentity = Map.copyOf(m);
    }

    public Optional<GlobalConfigDefinition> find(String category, String name) {
        return Optional.ofNullable(byIdentity.get(category + "/" + name));
    }

    /** The definition of category/name; a missing one stops the boot, naming the file that must define it. */
    public GlobalConfigDefinition require(String category, String name) {
        return find(category, name).orElseThrow(() ->
                new IllegalStateException("conf/globalConfig does not define " + category + "/" + name));
    }

    public Collection<GlobalConfigDefinition> all() {
        return byIdentity.values();
    }

    private static List<GlobalConfigDefinition> loadClasspath() {
        try {
            Resource[] files = new PathMatchingResourcePatternResolver().getResources(LOCATION);
            if (files.length == 0) throw new IllegalStateException("no config definitions at " + LOCATION);
            List<GlobalConfigDefinition> all = new ArrayList<>();
            for (Resource f : files) {
                try (InputStream in = f.getInputStream()) {
                    all.addAll(YAML.readValue(in, DefinitionsFile.class).configs);
                }
            }
            return all;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read config definitions", e);
        }
    }

    record DefinitionsFile(List<GlobalConfigDefinition> configs) {
    }
}
