package org.zstack.aio.plugin;

import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeText;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a failed start's error for libvirt's and QEMU's words refusing an io mode (the rules' {@code startRefusals}) and
 * finds the disks they are about: the disks whose image path the error names (QEMU names the file of the
 * {@code -blockdev}/{@code -drive} it could not open), else every disk that tried the refused mode (libvirt's
 * validation names no disk). A disk is only ever blamed for a mode it tried; an error without the words is not an io
 * mode's refusal, and nothing is recognised.
 */
final class RefusalRecognizer {

    /** At most this much of the line after the words is kept as what they said. */
    private static final int EXCERPT = 300;

    private final List<IoModeText> words;

    RefusalRecognizer(List<IoModeText> words) {
        this.words = words;
    }

    /** One disk of the start as the host opened it: its volume, image path (null: unknown) and the mode it tried. */
    static final class Tried {
        final PlannedDisk disk;
        final String path;
        final IoMode mode;

        Tried(PlannedDisk disk, String path, IoMode mode) {
            this.disk = disk;
            this.path = path;
            this.mode = mode;
        }
    }

    /** A disk the error refused a mode for, with the words and what they said. */
    static final class Match {
        final Tried disk;
        final IoModeText words;
        final String said;

        Match(Tried disk, IoModeText words, String said) {
            this.disk = disk;
            this.words = words;
            this.said = said;
        }
    }

    /** The disks the error refused a mode for, in the start's order; empty when it holds none of the words. */
    List<Match> recognise(String error, List<Tried> disks) {
        List<Match> out = new ArrayList<Match>();
        if (error == null) return out;
        for (IoModeText w : words) {
            int at = error.indexOf(w.text());
            if (at < 0) continue;
            String said = excerpt(error, at);
            List<Tried> tried = new ArrayList<Tried>();
            for (Tried t : disks) if (t.mode == w.mode()) tried.add(t);
            List<Tried> named = new ArrayList<Tried>();
            for (Tried t : tried) if (names(error, t.path)) named.add(t);
            for (Tried t : named.isEmpty() ? tried : named) {
                if (!blamed(out, t)) out.add(new Match(t, w, said));
            }
        }
        return out;
    }

    private static boolean blamed(List<Match> out, Tried t) {
        for (Match m : out) if (m.disk == t) return true;
        return false;
    }

    /**
     * Whether the error names the image path as a whole: QEMU quotes it in JSON ({@code "filename":"/p"}), in
     * {@code -drive file=/p,...} or in {@code Could not open '/p'}, so the path must end where the error's word does.
     */
    static boolean names(String error, String path) {
        if (path == null || path.isEmpty()) return false;
        for (int at = error.indexOf(path); at >= 0; at = error.indexOf(path, at + 1)) {
            int end = at + path.length();
            if (end == error.length()) return true;
            char c = error.charAt(end);
            if (c == '"' || c == '\'' || c == ',' || c == ':' || c == '}' || Character.isWhitespace(c)) return true;
        }
        return false;
    }

    /** The words and the rest of their line (QEMU's errno, libvirt's reason), at most {@value #EXCERPT} characters. */
    static String excerpt(String error, int at) {
        int end = at;
        while (end < error.length() && end - at < EXCERPT && error.charAt(end) != '\n' && error.charAt(end) != '\r') end++;
        return error.substring(at, end).trim();
    }
}
