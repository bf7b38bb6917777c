package org.zstack.aio.server.config;

/** A resource that can hold config overrides: its uuid and its type (VolumeVO, PrimaryStorageVO, ...). */
public record ResourceRef(String uuid, String type) {
}
