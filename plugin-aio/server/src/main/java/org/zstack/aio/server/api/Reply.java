package org.zstack.aio.server.api;

import java.util.List;
import java.util.Map;

/** ZStack's reply envelopes: {@code {"inventory": ...}}, {@code {"inventories": [...]}} and the empty {@code {}}. */
public final class Reply {

    private Reply() {
    }

    public record Inventory<T>(T inventory) {
    }

    public record Inventories<T>(List<T> inventories) {
    }

    public static <T> Inventory<T> of(T inventory) {
        return new Inventory<>(inventory);
    }

    public static <T> Inventories<T> list(List<T> inventories) {
        return new Inventories<>(inventories);
    }

    /** The body of an action that returns nothing: {}. */
    public static Map<String, String> empty() {
        return Map.of();
    }
}
