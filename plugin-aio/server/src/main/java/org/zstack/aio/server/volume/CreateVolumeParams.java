package org.zstack.aio.server.volume;

import com.fasterxml.jackson.databind.JsonNode;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.Uuids;

/**
 * The parameters of {@code POST /v1/volumes/data} in both dialects: ZStack's CreateDataVolumeAction ({@code diskSize},
 * {@code resourceUuid}, system tags {@code localStorage::hostUuid::<uuid>} and
 * {@code volumeProvisioningStrategy::ThinProvisioning|ThickProvisioning}) and plugin-aio's documented extensions
 * ({@code size}, {@code format}, {@code preallocation}, {@code hostUuid}), which win when both are given.
 */
final class CreateVolumeParams {

    private static final String HOST_TAG = "localStorage::hostUuid::";
    private static final String PROVISIONING_TAG = "volumeProvisioningStrategy::";

    private CreateVolumeParams() {
    }

    static VolumeService.CreateVolume read(JsonNode p) {
        if (p.hasNonNull("diskOfferingUuid")) {
            throw ApiException.badRequest("disk offerings are not supported by plugin-aio.",
                    "Send the size in bytes as \"diskSize\" instead of \"diskOfferingUuid\".");
        }
        if (p.hasNonNull("userTags") && !(p.get("userTags").isArray() && p.get("userTags").isEmpty())) {
            throw ApiException.badRequest("user tags are not supported by plugin-aio.", "Leave \"userTags\" out.");
        }
        String hostUuid = Bodies.optText(p, "hostUuid");
        String preallocation = Bodies.optText(p, "preallocation");
        for (String tag : Bodies.systemTags(p, HOST_TAG + "...")) {
            if (tag.startsWith(HOST_TAG)) {
                if (hostUuid == null) hostUuid = tag.substring(HOST_TAG.length());
            } else if (tag.startsWith(PROVISIONING_TAG)) {
                String strategy = tag.substring(PROVISIONING_TAG.length());
                String fromTag = switch (strategy) {
                    case "ThinProvisioning" -> "none";
                    case "ThickProvisioning" -> "falloc";
                    default -> throw ApiException.badRequest("'" + Uuids.abbreviate(strategy) + "' is not a provisioning strategy.",
                            "Use volumeProvisioningStrategy::ThinProvisioning or ::ThickProvisioning.");
                };
                if (preallocation == null) preallocation = fromTag;
            } else {
                throw ApiException.badRequest("system tag '" + Uuids.abbreviate(tag) + "' is not supported on data volumes.",
                        "Supported: " + HOST_TAG + "<host uuid>, " + PROVISIONING_TAG + "ThinProvisioning|ThickProvisioning.");
            }
        }
        String sizeField = p.has("size") ? "size" : "diskSize";
        String resourceUuid = Bodies.optText(p, "resourceUuid");
        String format = Bodies.optText(p, "format");
        return new VolumeService.CreateVolume(Bodies.text(p, "name"), Bodies.number(p, sizeField, 1L << 20, VolumeService.MAX_SIZE),
                format == null ? "qcow2" : format, preallocation, Bodies.text(p, "primaryStorageUuid"), hostUuid,
                resourceUuid == null ? null : Uuids.require(resourceUuid, "volume"));
    }
}
