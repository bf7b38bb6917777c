package org.zstack.aio.zstack;

import org.zstack.core.config.GlobalConfig;
import org.zstack.core.config.GlobalConfigDefinition;
import org.zstack.core.config.GlobalConfigValidation;
import org.zstack.header.storage.primary.PrimaryStorageVO;
import org.zstack.header.volume.VolumeVO;
import org.zstack.resourceconfig.BindResourceConfig;

/**
 * The io-mode configs, declared the ZStack way: the values are data in globalConfig/aioIoMode.xml, these fields give
 * them to the code. Each can be overridden on a volume and on a primary storage through ZStack's stock
 * resource-config API; the binding order is the resolution order (volume, then its primary storage, then global).
 * Valid values come from the decision core and are checked by {@link IoModeConfigValidation}.
 */
@GlobalConfigDefinition
public class AioIoModeGlobalConfig {
    public static final String CATEGORY = "kvm";

    @GlobalConfigValidation
    @BindResourceConfig({VolumeVO.class, PrimaryStorageVO.class})
    public static GlobalConfig IO_MODE = new GlobalConfig(CATEGORY, "vm.ioMode");

    @GlobalConfigValidation
    @BindResourceConfig({VolumeVO.class, PrimaryStorageVO.class})
    public static GlobalConfig ON_UNSATISFIED = new GlobalConfig(CATEGORY, "vm.ioMode.onUnsatisfied");

    @GlobalConfigValidation
    @BindResourceConfig({VolumeVO.class, PrimaryStorageVO.class})
    public static GlobalConfig ALLOW_FALLOC = new GlobalConfig(CATEGORY, "vm.ioMode.native.allowFalloc");
}
