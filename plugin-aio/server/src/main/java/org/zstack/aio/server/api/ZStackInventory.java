package org.zstack.aio.server.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The ZStack class an inventory stands for, e.g. {@code org.zstack.header.volume.VolumeInventory}: named in the
 * answer's {@code "schema"} map so that ZStack's SDK builds its typed inventory class (see {@link JsonSchemaAdvice}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ZStackInventory {
    String value();
}
