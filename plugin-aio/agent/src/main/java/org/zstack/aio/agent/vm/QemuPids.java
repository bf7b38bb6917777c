package org.zstack.aio.agent.vm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the QEMU pid libvirt's qemu driver writes to RUNDIR/NAME.pid; null when there is none (test driver). */
public final class QemuPids {

    private final Path runDir;

    public QemuPids(Path runDir) {
        this.runDir = runDir;
    }

    public Integer pidOf(String domainName) {
        Path file = runDir.resolve(domainName + ".pid");
        try {
            return Files.exists(file) ? Integer.valueOf(Files.readString(file).strip()) : null;
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }
}
