package org.zstack.aio.agent.api;

import java.util.List;
import java.util.Map;

/**
 * Host facts, probed not guessed.
 *
 * @param ioUringDisabled /proc/sys/kernel/io_uring_disabled, null when the file does not exist
 * @param qemuIoUring     QEMU really opened a test image with aio=io_uring (qemu-img bench -i io_uring)
 * @param qemuIoUringError why not, when it did not
 * @param qemuNative      QEMU really opened a test image with aio=native and O_DIRECT
 * @param probes          further named facts the known-bad rows of conf/aio/io-mode-rules.yaml test
 *                        (names in HostFacts: qemu.liburing, aio.free, kernel.release, io_uring.setup, ...); a name absent was not probed
 */
public record HostFactsRsp(String hostname, String kernelVersion, Integer ioUringDisabled, String qemuVersion,
                           Boolean qemuIoUring, String qemuIoUringError, Boolean qemuNative, String qemuNativeError,
                           String libvirtVersion, String libvirtUri, List<StoragePathFacts> storagePaths,
                           Map<String, String> probes) {

    public HostFactsRsp(String hostname, String kernelVersion, Integer ioUringDisabled, String qemuVersion,
                        Boolean qemuIoUring, String qemuIoUringError, Boolean qemuNative, String qemuNativeError,
                        String libvirtVersion, String libvirtUri, List<StoragePathFacts> storagePaths) {
        this(hostname, kernelVersion, ioUringDisabled, qemuVersion, qemuIoUring, qemuIoUringError, qemuNative,
                qemuNativeError, libvirtVersion, libvirtUri, storagePaths, null);
    }
}
