package org.zstack.aio.agent.domain;

/**
 * One disk as it goes into the domain XML.
 *
 * @param kind   FILE, BLOCK or NETWORK (libvirt's disk type)
 * @param source a file path, a block device path, or for NETWORK an rbd "pool/image" name
 * @param io     the {@code <driver io>} value, null for no attribute (QEMU's default, threads)
 * @param cache  the {@code <driver cache>} value, null for no attribute
 */
public record DiskSpec(String target, Kind kind, String source, String format, String cache, String io) {

    public enum Kind { FILE, BLOCK, NETWORK }

    public DiskSpec withIo(String newIo) {
        return new DiskSpec(target, kind, source, format, cache, newIo);
    }
}
