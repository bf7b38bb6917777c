package org.zstack.aio.plugin;

import java.util.Objects;

/** A host as an operation names it: its uuid, and its name for sentences ({@code host kvm2 (uuid)}). */
public final class HostRef {
    private final String uuid;
    private final String name;

    public HostRef(String uuid, String name) {
        this.uuid = Objects.requireNonNull(uuid, "uuid");
        this.name = name;
    }

    public String uuid() { return uuid; }

    public String name() { return name; }

    /** How sentences name the host. */
    public String label() { return "host " + (name == null ? uuid : name + " (" + uuid + ")"); }

    @Override
    public boolean equals(Object o) { return o instanceof HostRef && uuid.equals(((HostRef) o).uuid); }

    @Override
    public int hashCode() { return uuid.hashCode(); }

    @Override
    public String toString() { return label(); }
}
