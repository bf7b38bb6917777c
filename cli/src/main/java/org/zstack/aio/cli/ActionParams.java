package org.zstack.aio.cli;

import org.zstack.sdk.AbstractAction;
import org.zstack.sdk.Param;
import org.zstack.sdk.QueryAction;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An action's parameters as {@code key=value} words, zstack-cli style: each public {@link Param} field (and a query
 * action's paging fields) by name; lists comma-separated; a query action's conditions as repeated {@code q=}.
 */
final class ActionParams {

    /** One parameter: its name, the field it sets, whether the server needs it. */
    record Spec(String name, Field field, boolean required) {
        String describe() {
            if (name.equals("q")) return "q=<condition>, repeatable: field=value, field!=value, field>value, field?=a,b, field~=pattern%, field=null";
            Class<?> t = field.getType();
            String type = List.class.isAssignableFrom(t) ? "a,b,…" : t.getSimpleName().toLowerCase();
            return name + "=<" + type + ">" + (required ? " (required)" : "");
        }
    }

    private ActionParams() {
    }

    /** The parameters of an action class, in declaration order (the session is the CLI's, not a parameter). */
    static Map<String, Spec> of(Class<?> action) {
        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> c = action; c != null && c != Object.class; c = c.getSuperclass()) chain.add(0, c);
        Map<String, Spec> out = new LinkedHashMap<>();
        for (Class<?> c : chain) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isPublic(f.getModifiers()) || Modifier.isStatic(f.getModifiers())) continue;
                if (f.getName().equals("sessionId")) continue;
                Param p = f.getAnnotation(Param.class);
                boolean query = c == QueryAction.class;
                if (p == null && !query) continue;
                String name = query && f.getName().equals("conditions") ? "q" : f.getName();
                out.put(name, new Spec(name, f, p != null && p.required()));
            }
        }
        return out;
    }

    /** Sets {@code key=value} words on the action; a wrong word is an {@link IllegalArgumentException} saying why. */
    static void apply(AbstractAction<?> action, List<String> words) {
        Map<String, Spec> specs = of(action.getClass());
        String command = action.getClass().getSimpleName().replaceFirst("Action$", "");
        for (String w : words) {
            int eq = w.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + w + "' is not key=value. Run 'aio-cli help " + command + "' for its parameters.");
            }
            String key = w.substring(0, eq);
            String value = w.substring(eq + 1);
            Spec s = specs.get(key);
            if (s == null) {
                throw new IllegalArgumentException(command + " has no parameter '" + key + "'. It takes: "
                        + String.join(", ", specs.keySet()) + ".");
            }
            set(action, s, value, command);
        }
    }

    @SuppressWarnings("unchecked")
    private static void set(AbstractAction<?> action, Spec s, String value, String command) {
        Field f = s.field();
        Class<?> t = f.getType();
        try {
            if (s.name().equals("q")) {
                ((List<String>) f.get(action)).add(value); // one condition per q=, as the API takes them
            } else if (List.class.isAssignableFrom(t)) {
                f.set(action, value.isEmpty() ? List.of() : new ArrayList<>(Arrays.asList(value.split(","))));
            } else if (t == String.class) {
                f.set(action, value);
            } else if (t == Integer.class || t == int.class) {
                f.set(action, Integer.valueOf(value));
            } else if (t == Long.class || t == long.class) {
                f.set(action, Long.valueOf(value));
            } else if (t == Boolean.class || t == boolean.class) {
                if (!value.equals("true") && !value.equals("false")) throw new NumberFormatException();
                f.set(action, Boolean.valueOf(value));
            } else {
                throw new IllegalStateException(command + "." + s.name() + " has a type the CLI cannot set: " + t);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(command + ": '" + value + "' is not a valid " + t.getSimpleName().toLowerCase()
                    + " for " + s.name() + ".");
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

}
