package org.zstack.aio.plugin;

import java.util.List;

/**
 * The ZStack module's {@code globalConfig/aioIoMode.xml}, written from {@link IoModeConfig}: ZStack reads config
 * definitions only from XML files on disk, so the file exists, but it says nothing the table does not.
 * ZStack's XML has no element for bindings or valid values: the module's {@code @BindResourceConfig} fields and its
 * validators carry those, checked against the same table. {@code ConfigTableAgreementTest} fails, showing the
 * expected file, when the checked-in one differs.
 */
public final class ZStackGlobalConfigXml {

    private ZStackGlobalConfigXml() {
    }

    public static String render(List<IoModeConfig> configs) {
        StringBuilder b = new StringBuilder();
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        b.append("<!-- Generated from plugin-aio/plugin-core's IoModeConfig (the one declaration of the io-mode configs for\n");
        b.append("     both platforms); ConfigTableAgreementTest fails when this file differs from it. Bindings and valid\n");
        b.append("     values, which ZStack's XML cannot hold, are in the module's AioIoModeGlobalConfig and validators. -->\n");
        b.append("<globalConfig xmlns=\"http://zstack.org/schema/zstack\">\n");
        for (IoModeConfig c : configs) {
            b.append("    <config>\n");
            element(b, "category", c.category());
            element(b, "name", c.name());
            element(b, "description", c.description());
            element(b, "defaultValue", c.defaultValue());
            element(b, "type", c.type().zstackName());
            b.append("    </config>\n");
        }
        return b.append("</globalConfig>\n").toString();
    }

    private static void element(StringBuilder b, String name, String text) {
        b.append("        <").append(name).append('>').append(escape(text)).append("</").append(name).append(">\n");
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
