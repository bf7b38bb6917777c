package org.zstack.aio.cli;

import org.zstack.sdk.AbstractAction;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Every action of the SDK, found where the SDK's classes are (its jar, or its classes directory in a build): each
 * concrete {@code org.zstack.sdk.<Name>Action} is the command {@code <Name>}. Nothing is listed by hand, so an action
 * added to the SDK is a command at once.
 */
final class ActionCatalog {

    private static final Pattern ACTION = Pattern.compile("org/zstack/sdk/([A-Z][A-Za-z0-9]*)Action\\.class");

    private ActionCatalog() {
    }

    /** Command name → action class, sorted by name. */
    static Map<String, Class<? extends AbstractAction<?>>> discover() {
        Map<String, Class<? extends AbstractAction<?>>> out = new TreeMap<>();
        Path where;
        try {
            where = Path.of(AbstractAction.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the SDK's classes", e);
        }
        try {
            if (Files.isDirectory(where)) {
                try (Stream<Path> files = Files.walk(where)) {
                    files.forEach(f -> add(out, where.relativize(f).toString().replace('\\', '/')));
                }
            } else {
                try (JarFile jar = new JarFile(where.toFile())) {
                    for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) add(out, e.nextElement().getName());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void add(Map<String, Class<? extends AbstractAction<?>>> out, String entry) {
        Matcher m = ACTION.matcher(entry);
        if (!m.matches()) return;
        try {
            Class<?> c = Class.forName("org.zstack.sdk." + m.group(1) + "Action");
            if (AbstractAction.class.isAssignableFrom(c) && !Modifier.isAbstract(c.getModifiers())
                && Modifier.isPublic(c.getModifiers())) {
                out.put(m.group(1), (Class<? extends AbstractAction<?>>) c);
            }
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(entry, e);
        }
    }
}
