package org.zstack.sdk;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a public field of an action as an API parameter (as ZStack's generated SDK does).
 *
 * <p>A parameter whose name matches a {@code {placeholder}} of the action's path fills that placeholder; the others
 * go into the JSON body under the action's {@link RestInfo#parameterName()} (PUT/POST) or into the query string
 * (GET/DELETE). A {@code null} optional parameter is not sent.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface Param {

    /** When true, {@link AbstractAction#call(ZSClient)} refuses a {@code null} value before anything is sent. */
    boolean required() default true;
}
