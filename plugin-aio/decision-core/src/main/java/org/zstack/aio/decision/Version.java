package org.zstack.aio.decision;

import java.util.Arrays;

/**
 * A dotted numeric version (kernel "6.18.44-fc-v669", QEMU "7.2.0", libvirt "9.0.0"), compared number by
 * number; anything after the leading digits and dots is ignored, missing parts count as 0.
 */
public final class Version implements Comparable<Version> {

    private final int[] parts;

    public Version(int[] parts) {
        this.parts = parts.clone();
    }

    /** A copy: a Version never changes. */
    public int[] parts() {
        return parts.clone();
    }

    public static Version parse(String text) {
        if (text == null) throw new IllegalArgumentException("version is null");
        String s = text.trim();
        int end = 0;
        while (end < s.length() && (Character.isDigit(s.charAt(end)) || s.charAt(end) == '.')) end++;
        String head = s.substring(0, end);
        while (head.endsWith(".")) head = head.substring(0, head.length() - 1);
        if (head.isEmpty()) throw new IllegalArgumentException("not a version: '" + text + "'");
        String[] split = head.split("\\.");
        int[] parts = new int[split.length];
        for (int i = 0; i < split.length; i++) parts[i] = Integer.parseInt(split[i]);
        return new Version(parts);
    }

    /** Like {@link #parse} but null for null or unparsable text. */
    public static Version parseOrNull(String text) {
        try {
            return text == null ? null : parse(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    public boolean atLeast(Version other) { return compareTo(other) >= 0; }

    @Override
    public int compareTo(Version o) {
        int n = Math.max(parts.length, o.parts.length);
        for (int i = 0; i < n; i++) {
            int a = i < parts.length ? parts[i] : 0;
            int b = i < o.parts.length ? o.parts[i] : 0;
            if (a != b) return Integer.compare(a, b);
        }
        return 0;
    }

    @Override
    public boolean equals(Object o) { return o instanceof Version && compareTo((Version) o) == 0; }

    @Override
    public int hashCode() {
        int[] p = parts;
        int len = p.length;
        while (len > 0 && p[len - 1] == 0) len--;
        return Arrays.hashCode(Arrays.copyOf(p, len));
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) b.append('.');
            b.append(parts[i]);
        }
        return b.toString();
    }
}
