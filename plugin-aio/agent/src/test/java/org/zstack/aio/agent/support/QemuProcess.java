package org.zstack.aio.agent.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a running QEMU really does, read from /proc (QEMU 7.2's query-block has no aio field):
 * the "aio" of each -blockdev on its command line, an io_uring file descriptor, a native AIO ring mapping.
 */
public record QemuProcess(int pid) {

    private static final Pattern AIO = Pattern.compile("\"aio\":\"(\\w+)\"");

    public String cmdline() throws IOException {
        return new String(Files.readAllBytes(Path.of("/proc", Integer.toString(pid), "cmdline")),
                StandardCharsets.UTF_8).replace('\0', ' ');
    }

    /** The aio value of every -blockdev, in command-line order. */
    public List<String> aioModes() throws IOException {
        List<String> modes = new ArrayList<>();
        Matcher m = AIO.matcher(cmdline());
        while (m.find()) {
            modes.add(m.group(1));
        }
        return modes;
    }

    /** An anon_inode:[io_uring] fd exists only when some disk runs aio=io_uring. */
    public long ioUringFds() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Integer.toString(pid), "fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().equals("anon_inode:[io_uring]");
                } catch (IOException e) {
                    return false; // an fd closed while we looked
                }
            }).count();
        }
    }

    /** Linux native AIO (io_setup) maps an "[aio]" ring into the process: only with aio=native. */
    public boolean hasNativeAioRing() throws IOException {
        return Files.readAllLines(Path.of("/proc", Integer.toString(pid), "maps")).stream()
                .anyMatch(l -> l.contains("[aio]"));
    }
}
