package org.zstack.aio.zstack;

import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.core.config.GlobalConfig;
import org.zstack.resourceconfig.BindResourceConfig;
import org.zstack.utils.DebugUtils;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/**
 * The module's ZStack declarations (the globalConfig XML ZStack loaded, the {@code @BindResourceConfig} fields) against
 * the core's {@link IoModeConfig}: a management node whose declarations say otherwise stops at boot, naming the
 * difference, instead of resolving a config at a level the other platform ignores.
 */
final class ConfigDeclarations {

    private ConfigDeclarations() {
    }

    static void requireAgreement() {
        List<String> differences = new ArrayList<>();
        for (IoModeConfig c : IoModeConfig.ZSTACK_MODULE) {
            GlobalConfig gc = AioIoModeGlobalConfig.of(c);
            if (!c.defaultValue().equals(gc.getDefaultValue())) {
                differences.add(c + " default " + gc.getDefaultValue() + ", the core says " + c.defaultValue());
            }
            if (!c.type().zstackName().equals(gc.getType())) {
                differences.add(c + " type " + gc.getType() + ", the core says " + c.type().zstackName());
            }
            List<String> bound = bindings(gc);
            if (!bound.equals(c.bindingTypes())) {
                differences.add(c + " bound to " + bound + ", the core says " + c.bindingTypes());
            }
        }
        DebugUtils.Assert(differences.isEmpty(), "plugin-aio's ZStack config declarations differ from its core's table"
                + " (reinstall the module's files from one bundle): " + differences);
    }

    private static List<String> bindings(GlobalConfig gc) {
        List<String> out = new ArrayList<>();
        for (Field f : AioIoModeGlobalConfig.class.getFields()) {
            try {
                if (f.get(null) != gc) continue;
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
            BindResourceConfig b = f.getAnnotation(BindResourceConfig.class);
            if (b != null) for (Class<?> type : b.value()) out.add(type.getSimpleName());
        }
        return out;
    }
}
