package org.zstack.sdk;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SDK's catalog: one {@code <operationId>Action} per API operation with the method and path the server maps
 * (the server's own test checks its OpenAPI operationIds against {@code org.zstack.sdk.<operationId>Action}).
 */
class ActionCatalogTest {

    /** operationId -> "METHOD path parameterName" as the controllers declare them. */
    private static final Map<String, String> API = new TreeMap<>(Map.ofEntries(
            Map.entry("LogInByAccount", "PUT /v1/accounts/login logInByAccount"),
            Map.entry("LogOut", "DELETE /v1/accounts/sessions/{sessionUuid} null"),
            Map.entry("CreateAccount", "POST /v1/accounts params"),
            Map.entry("QueryAudit", "GET /v1/audits null"),
            Map.entry("QueryGlobalConfig", "GET /v1/global-configurations null"),
            Map.entry("QueryResourceConfig", "GET /v1/resource-configurations null"),
            Map.entry("QueryAccount", "GET /v1/accounts null"),
            Map.entry("GetGlobalConfig", "GET /v1/global-configurations/{category}/{name} null"),
            Map.entry("UpdateGlobalConfig", "PUT /v1/global-configurations/{category}/{name}/actions updateGlobalConfig"),
            Map.entry("UpdateResourceConfig",
                    "PUT /v1/resource-configurations/{category}/{name}/{resourceUuid}/actions updateResourceConfig"),
            Map.entry("DeleteResourceConfig", "DELETE /v1/resource-configurations/{category}/{name}/{resourceUuid} null"),
            Map.entry("GetResourceConfig", "GET /v1/resource-configurations/{resourceUuid}/{category}/{name} null"),
            Map.entry("GetVolumeIoMode", "GET /v1/volumes/{uuid}/io-mode null"),
            Map.entry("QueryVolumeIoModePreview", "GET /v1/io-mode/previews null"),
            Map.entry("GetGlobalConfigImpact", "GET /v1/io-mode/impact null"),
            Map.entry("AddKVMHost", "POST /v1/hosts/kvm params"),
            Map.entry("ReconnectHost", "PUT /v1/hosts/{uuid}/actions reconnectHost"),
            Map.entry("QueryHost", "GET /v1/hosts null"),
            Map.entry("GetHost", "GET /v1/hosts/{uuid} null"),
            Map.entry("GetHostIoFacts", "GET /v1/hosts/{uuid}/io-facts null"),
            Map.entry("BenchmarkHostIo", "POST /v1/hosts/{uuid}/io-benchmarks params"),
            Map.entry("QueryHostIoBenchmark", "GET /v1/hosts/{uuid}/io-benchmarks null"),
            Map.entry("AddPrimaryStorage", "POST /v1/primary-storage params"),
            Map.entry("QueryPrimaryStorage", "GET /v1/primary-storage null"),
            Map.entry("GetPrimaryStorage", "GET /v1/primary-storage/{uuid} null"),
            Map.entry("CreateDataVolume", "POST /v1/volumes/data params"),
            Map.entry("QueryVolume", "GET /v1/volumes null"),
            Map.entry("GetVolume", "GET /v1/volumes/{uuid} null"),
            Map.entry("CreateVmInstance", "POST /v1/vm-instances params"),
            Map.entry("QueryVmInstance", "GET /v1/vm-instances null"),
            Map.entry("GetVmInstance", "GET /v1/vm-instances/{uuid} null"),
            Map.entry("StartVmInstance", "PUT /v1/vm-instances/{uuid}/actions startVmInstance"),
            Map.entry("StopVmInstance", "PUT /v1/vm-instances/{uuid}/actions stopVmInstance"),
            Map.entry("AttachDataVolumeToVm", "POST /v1/volumes/{volumeUuid}/vm-instances/{vmUuid} null"),
            Map.entry("QueryQuota", "GET /v1/accounts/quotas null"),
            Map.entry("UpdateQuota", "PUT /v1/accounts/quotas/actions updateQuota"),
            Map.entry("MigrateVm", "PUT /v1/vm-instances/{uuid}/actions migrateVm"),
            Map.entry("GetVmMigrationTargetHosts", "GET /v1/vm-instances/{uuid}/migration-target-hosts null")));

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\w+)}");

    @Test
    void everyOperationHasItsActionWithTheServersMethodAndPath() throws Exception {
        for (Map.Entry<String, String> e : API.entrySet()) {
            Class<?> c = Class.forName("org.zstack.sdk." + e.getKey() + "Action");
            assertThat(AbstractAction.class).isAssignableFrom(c);
            RestInfo info = ((AbstractAction<?>) c.getConstructor().newInstance()).getRestInfo();
            assertThat(info.httpMethod() + " " + info.path() + " " + info.parameterName())
                    .as(e.getKey()).isEqualTo(e.getValue());
            assertThat(info.needSession()).as(e.getKey()).isEqualTo(!e.getKey().equals("LogInByAccount"));
        }
    }

    @Test
    void everyActionInTheJarIsInTheCatalogAndWellFormed() throws Exception {
        List<String> actions = actionNames();
        assertThat(actions).containsExactlyInAnyOrderElementsOf(API.keySet().stream().map(n -> n + "Action").toList());
        for (String name : actions) {
            Class<?> c = Class.forName("org.zstack.sdk." + name);
            AbstractAction<?> a = (AbstractAction<?>) c.getConstructor().newInstance();
            assertThat(Modifier.isPublic(c.getModifiers())).as(name).isTrue();
            Class<?> result = Class.forName("org.zstack.sdk." + name.replaceFirst("Action$", "Result"));
            assertThat(a.getResultClass()).as(name).isEqualTo(result);
            result.getConstructor();
            List<String> params = new ArrayList<>();
            for (Field f : c.getDeclaredFields()) {
                if (f.isAnnotationPresent(Param.class)) {
                    assertThat(Modifier.isPublic(f.getModifiers())).as(name + "." + f.getName()).isTrue();
                    params.add(f.getName());
                }
            }
            Matcher m = PLACEHOLDER.matcher(a.getRestInfo().path());
            while (m.find()) {
                assertThat(params).as(name + " has a field for {" + m.group(1) + "}").contains(m.group(1));
                assertThat(c.getDeclaredField(m.group(1)).getAnnotation(Param.class).required()).isTrue();
            }
        }
    }

    private static List<String> actionNames() throws URISyntaxException, IOException {
        Path dir = Path.of(AbstractAction.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("org/zstack/sdk");
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith("Action.class") && !n.equals("AbstractAction.class") && !n.equals("QueryAction.class"))
                    .map(n -> n.substring(0, n.length() - ".class".length()))
                    .sorted().toList();
        }
    }
}
