package org.zstack.aio.decision;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What libvirt or QEMU say when a disk cannot have an io mode, as data (conf/aio/io-mode-rules.yaml,
 * {@code startRefusals} and {@code silentFallbacks}), each with the source it was taken from. A start refusal stops the
 * VM's start ("Unable to use io_uring: failed to init linux io_uring ring"); a silent fallback is QEMU's warning in the
 * VM's log that a disk runs its thread pool instead ("Unable to use linux io_uring, falling back to thread pool").
 * Matched as a plain substring, case and all: the texts are QEMU's and libvirt's own, never reworded.
 */
public final class IoModeText {

    /** Who said it. */
    public enum By { QEMU, LIBVIRT }

    /**
     * What a refusal is about. {@code HOST_STORAGE}: the host (its QEMU build, kernel, sandbox) or the storage the disk
     * is on, so the mode is remembered as refused on that host × storage. {@code VOLUME}: the volume's own settings
     * (its cache mode), which the decision's own checks judge; nothing is remembered.
     */
    public enum Scope { HOST_STORAGE, VOLUME }

    /**
     * What may clear a remembered refusal besides an admin. {@code VERSION_CHANGE}: a later host probe reports
     * another QEMU or libvirt version than the one the refusal was seen with (a refusal of the build itself).
     * {@code READ_BACK}: a read-back finds a disk on the same host × storage running the mode as libvirt's QEMU opened
     * it. A probe outside QEMU's sandbox (qemu-img over SSH) clears nothing: it cannot see what refused QEMU.
     */
    public enum Clearing { VERSION_CHANGE, READ_BACK }

    private final String id;
    private final IoMode mode;
    private final By by;
    private final String text;
    private final Scope scope;
    private final Set<Clearing> clearedBy;
    private final String source;

    public IoModeText(String id, IoMode mode, By by, String text, Scope scope, Set<Clearing> clearedBy, String source) {
        this.id = Objects.requireNonNull(id, "id");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.by = Objects.requireNonNull(by, "by");
        this.text = Objects.requireNonNull(text, "text");
        if (text.trim().isEmpty()) throw new IllegalArgumentException("text of " + id + " is empty");
        if (mode == IoMode.THREADS) throw new IllegalArgumentException(id + ": threads is never refused");
        this.scope = Objects.requireNonNull(scope, "scope");
        this.clearedBy = clearedBy == null || clearedBy.isEmpty() ? Collections.<Clearing>emptySet()
                : Collections.unmodifiableSet(EnumSet.copyOf(clearedBy));
        this.source = Objects.requireNonNull(source, "source");
    }

    public String id() { return id; }

    /** The io mode it refuses (or falls back from). */
    public IoMode mode() { return mode; }

    public By by() { return by; }

    /** The words, as libvirt or QEMU print them. */
    public String text() { return text; }

    public Scope scope() { return scope; }

    public Set<Clearing> clearedBy() { return clearedBy; }

    /** Where the words were taken from (file and function, version range, where they were seen). */
    public String source() { return source; }

    /** Whether {@code message} holds these words. */
    public boolean foundIn(String message) {
        return message != null && message.contains(text);
    }

    /** "QEMU" or "libvirt", as sentences name them. */
    public String byName() { return by == By.QEMU ? "QEMU" : "libvirt"; }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof IoModeText)) return false;
        IoModeText t = (IoModeText) o;
        return id.equals(t.id) && mode == t.mode && by == t.by && text.equals(t.text) && scope == t.scope
               && clearedBy.equals(t.clearedBy) && source.equals(t.source);
    }

    @Override
    public int hashCode() { return Objects.hash(id, mode, by, text, scope, clearedBy, source); }

    @Override
    public String toString() { return "IoModeText[" + id + ", " + mode.wire() + ": " + text + "]"; }
}
