package org.zstack.aio.plugin.bench;

import java.util.Locale;

/**
 * The kind of image a benchmark measured, format and preallocation ({@code qcow2-full}), named as the standalone's
 * benchmark names them (agent-api's BenchScores): a storage's figures apply to the volumes of that kind only, since
 * a sparse image's writes allocate and a full one's do not.
 */
public final class ImageKind {

    private final String format;
    private final String preallocation;

    private ImageKind(String format, String preallocation) {
        this.format = format;
        this.preallocation = preallocation;
    }

    /**
     * @param format        qcow2 or raw (null: qcow2, what file storages create)
     * @param preallocation none, metadata, falloc or full; null or "off" is none (a volume's unknown preallocation is
     *                      judged as none by the decision, too)
     * @throws IllegalArgumentException for another format or preallocation, or raw with metadata
     */
    public static ImageKind of(String format, String preallocation) {
        String f = format == null ? "qcow2" : format.trim().toLowerCase(Locale.ROOT);
        String p = preallocation == null ? "none" : preallocation.trim().toLowerCase(Locale.ROOT);
        if ("off".equals(p)) p = "none";
        if (!"qcow2".equals(f) && !"raw".equals(f)) throw new IllegalArgumentException("image format must be qcow2 or raw, not '" + format + "'");
        if (!"none".equals(p) && !"metadata".equals(p) && !"falloc".equals(p) && !"full".equals(p)) {
            throw new IllegalArgumentException("preallocation must be none, metadata, falloc or full, not '" + preallocation + "'");
        }
        if ("raw".equals(f) && "metadata".equals(p)) throw new IllegalArgumentException("a raw image has no metadata preallocation");
        return new ImageKind(f, p);
    }

    /** The kind of a volume, or null when it is none a benchmark can measure (e.g. a format other than qcow2 and raw). */
    public static ImageKind ofVolumeOrNull(String format, String preallocation) {
        try {
            return of(format, preallocation);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** {@code qcow2-full}. */
    public static ImageKind parse(String name) {
        int dash = name == null ? -1 : name.indexOf('-');
        if (dash <= 0) throw new IllegalArgumentException("an image kind is format-preallocation (qcow2-full), not '" + name + "'");
        return of(name.substring(0, dash), name.substring(dash + 1));
    }

    public String format() { return format; }

    /** none, metadata, falloc or full. */
    public String preallocation() { return preallocation; }

    /** What qemu-img create calls the preallocation (none is "off"). */
    public String qemuPreallocation() { return "none".equals(preallocation) ? "off" : preallocation; }

    /**
     * Reads measure the storage only on a fully written image: reading a hole (or an unwritten extent) never reaches
     * the disk (the standalone's rule, BenchScores.measuresReads).
     */
    public boolean measuresReads() { return "full".equals(preallocation); }

    public String name() { return format + "-" + preallocation; }

    @Override
    public boolean equals(Object o) {
        return o instanceof ImageKind && ((ImageKind) o).name().equals(name());
    }

    @Override
    public int hashCode() { return name().hashCode(); }

    @Override
    public String toString() { return name(); }
}
