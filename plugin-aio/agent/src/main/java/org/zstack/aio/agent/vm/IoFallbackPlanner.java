package org.zstack.aio.agent.vm;

import org.zstack.aio.agent.api.BenchScores;
import org.zstack.aio.decision.IoMode;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.HashSet;

/**
 * Decides which disks step down to their next io candidate after libvirt or QEMU refused the domain.
 * Stepping down a disk that was not the problem would silently cost it performance, so the choice narrows as
 * far as the error text allows:
 * <ol>
 * <li>the error names disks (target dev like "vdb", or the image path): only those;</li>
 * <li>else it names io modes (libvirt: {@code io='native'}, QEMU: {@code aio=native}, or io_uring): only the
 *     disks currently trying one of those modes;</li>
 * <li>else every disk that still has a candidate left.</li>
 * </ol>
 * When the named disks have no candidate left, nothing steps down and the start fails with that error.
 */
final class IoFallbackPlanner {

    private static final Pattern MODE = Pattern.compile("\\ba?io['\"]?\\s*[=:]\\s*['\"]?("
            + String.join("|", BenchScores.MODES) + ")\\b");
    private static final String IO_URING = IoMode.IO_URING.wire();

    private IoFallbackPlanner() {
    }

    static List<DiskIoCursor> toStepDown(List<DiskIoCursor> disks, String error) {
        return implicated(disks, error).stream().filter(DiskIoCursor::canStepDown).toList();
    }

    /** The disks the error is about, whether or not they have a candidate left (narrowest tier that matches). */
    static List<DiskIoCursor> implicated(List<DiskIoCursor> disks, String error) {
        String text = error == null ? "" : error;
        List<DiskIoCursor> named = disks.stream().filter(d -> namesDisk(text, d)).toList();
        if (!named.isEmpty()) {
            return named;
        }
        Set<String> modes = namedModes(text);
        List<DiskIoCursor> byMode = disks.stream()
                .filter(d -> d.currentIo() != null && modes.contains(d.currentIo())).toList();
        if (!byMode.isEmpty()) {
            return byMode;
        }
        return disks;
    }

    static boolean namesDisk(String error, DiskIoCursor d) {
        String path = d.disk().installPath();
        if (path != null && !path.isBlank() && error.contains(path)) {
            return true;
        }
        return Pattern.compile("(?<![A-Za-z0-9])" + Pattern.quote(d.target()) + "(?![A-Za-z0-9])")
                .matcher(error).find();
    }

    static Set<String> namedModes(String error) {
        Matcher m = MODE.matcher(error);
        Set<String> modes = new HashSet<>();
        while (m.find()) {
            modes.add(m.group(1));
        }
        if (error.contains(IO_URING)) {
            modes.add(IO_URING);
        }
        return modes.stream().collect(Collectors.toUnmodifiableSet());
    }
}
