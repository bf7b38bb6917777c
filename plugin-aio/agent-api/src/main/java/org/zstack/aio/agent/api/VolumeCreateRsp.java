package org.zstack.aio.agent.api;

/** The created image and its measured allocation (bytes allocated on the storage vs virtual size). */
public record VolumeCreateRsp(String installPath, long size, long actualSize) {
}
