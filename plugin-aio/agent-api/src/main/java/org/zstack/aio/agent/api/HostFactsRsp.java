package org.zstack.aio.agent.api;

import java.util.List;

/**
 * Host facts, probed not guessed.
 *
 * @param ioUringDisabled /proc/sys/kernel/io_uring_disabled, null when the file does not exist
 * @param qemuIoUring     QEMU really opened a test image with aio=io_uring (qemu-img bench -i io_uring)
 * @param qemuIoUringError why not, when it did not
 * @param qemuNative      QEMU really opened a test image with aio=native and O_DIRECT
 */
public record HostFactsRsp(String hostname, String kernelVersion, Integer ioUringDisabled, String qemuVersion,
                           Boolean qemuIoUring, String qemuIoUringError, Boolean qemuNative, String qemuNativeError,
                           String libvirtVersion, String libvirtUri, List<StoragePathFacts> storagePaths) {
}
