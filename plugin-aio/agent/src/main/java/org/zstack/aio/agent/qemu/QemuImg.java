package org.zstack.aio.agent.qemu;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.zstack.aio.agent.process.ProcessResult;
import org.zstack.aio.agent.process.ProcessRunner;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** qemu-img, run with argument lists. Failures come back as results, the caller decides how bad they are. */
public final class QemuImg {

    /** virtual-size and actual-size of {@code qemu-img info --output=json}: what the image claims vs what it uses. */
    public record Info(long virtualSize, long actualSize) {
    }

    private final ProcessRunner runner;
    private final ObjectMapper json = new ObjectMapper();

    public QemuImg(ProcessRunner runner) {
        this.runner = runner;
    }

    /** @param preallocation qemu-img's own value: off, metadata, falloc or full */
    /**
     * Runs at a lower CPU priority ({@code nice -n 10}): writing gigabytes of preallocation is background work
     * and must not take the CPU from VM starts and stops on the same host.
     */
    public ProcessResult create(Path path, String format, String preallocation, long sizeBytes) {
        return runner.run(List.of("nice", "-n", "10", "qemu-img", "create", "-q", "-f", format, "-o",
                "preallocation=" + preallocation, path.toString(), Long.toString(sizeBytes)));
    }

    public Info info(Path path) throws IOException {
        ProcessResult r = runner.run(List.of("qemu-img", "info", "--output=json", "-U", path.toString()));
        if (!r.ok()) {
            throw new IOException("qemu-img info " + path + " failed: " + r.errorText());
        }
        JsonNode node = json.readTree(r.stdout());
        if (!node.hasNonNull("virtual-size") || !node.hasNonNull("actual-size")) {
            throw new IOException("qemu-img info " + path + " gave no virtual-size/actual-size: " + r.stdout());
        }
        return new Info(node.get("virtual-size").asLong(), node.get("actual-size").asLong());
    }

    /**
     * Opens a raw image the way QEMU would run a disk with {@code aio=MODE} and cache none (O_DIRECT) and reads
     * one block. Success means this QEMU build and this kernel really accept the mode on that file system.
     */
    public ProcessResult benchOneRead(Path rawImage, String aioMode) {
        return runner.run(List.of("qemu-img", "bench", "-f", "raw", "-t", "none", "-i", aioMode, "-c", "1",
                rawImage.toString()));
    }
}
