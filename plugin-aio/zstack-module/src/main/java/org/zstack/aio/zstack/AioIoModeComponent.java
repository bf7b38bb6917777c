package org.zstack.aio.zstack;

import org.zstack.header.Component;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

/**
 * plugin-aio's start on a ZStack management node: checks its ZStack config declarations against the core's table,
 * checks that its tables exist ({@link AioSchema}), installs the config validators and the copies of the admin's
 * values, and restores the values a boot without the module deleted ({@link AioConfigBackup}). ZStack's
 * GlobalConfigFacade and ResourceConfigFacade have loaded the configs by then: the module's Spring file is imported
 * after ZStack's own.
 */
public class AioIoModeComponent implements Component {
    private static final CLogger logger = Utils.getLogger(AioIoModeComponent.class);

    private final AioSchema schema;
    private final IoModeConfigValidation validation;
    private final AioConfigBackup configBackup;

    public AioIoModeComponent(AioSchema schema, IoModeConfigValidation validation, AioConfigBackup configBackup) {
        this.schema = schema;
        this.validation = validation;
        this.configBackup = configBackup;
    }

    @Override
    public boolean start() {
        ConfigDeclarations.requireAgreement();
        schema.check();
        validation.install();
        // the validators above check what is restored
        configBackup.install();
        restoreConfigs();
        return true;
    }

    /** What the module's start does with the copies of the admin's values; never stops the node. */
    AioConfigBackup.Restored restoreConfigs() {
        try {
            return configBackup.restore();
        } catch (RuntimeException e) {
            logger.warn("plugin-aio: cannot restore the admin's config values from " + ConfigBackupStore.TABLE
                    + "; ZStack's values stay as they are", e);
            return new AioConfigBackup.Restored();
        }
    }

    @Override
    public boolean stop() {
        return true;
    }
}
