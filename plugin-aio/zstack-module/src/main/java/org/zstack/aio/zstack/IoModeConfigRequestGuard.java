package org.zstack.aio.zstack;

import org.zstack.aio.plugin.ConfigBindingRule;
import org.zstack.aio.plugin.ConfigRefusal;
import org.zstack.aio.plugin.ConfigValueRule;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.core.config.APIUpdateGlobalConfigMsg;
import org.zstack.core.config.GlobalConfigException;
import org.zstack.core.db.Q;
import org.zstack.header.apimediator.ApiMessageInterceptionException;
import org.zstack.header.apimediator.GlobalApiMessageInterceptor;
import org.zstack.header.message.APIMessage;
import org.zstack.header.vo.ResourceVO;
import org.zstack.header.vo.ResourceVO_;
import org.zstack.resourceconfig.APIUpdateResourceConfigMsg;
import org.zstack.resourceconfig.APIUpdateResourceConfigsMsg;
import org.zstack.resourceconfig.ResourceConfig;
import org.zstack.resourceconfig.ResourceConfigFacade;

import java.util.Arrays;
import java.util.List;

import static org.zstack.core.Platform.argerr;
import static org.zstack.core.Platform.operr;

/**
 * ZStack's config APIs as they reach the module's three configs, refused before ZStack's own handling where that
 * answers a bad request badly (found by AioIoModeBadInputCase):
 * <ul>
 * <li>UpdateGlobalConfig without a value: ZStack's GlobalConfig.update throws a NullPointerException (an internal
 * error, SYS.1000, and a stack trace in the log);</li>
 * <li>UpdateResourceConfigs (the batch API, whose values ZStack neither trims nor checks per field): a value the
 * validators refuse is thrown from ZStack's interceptor as an internal error, and a config its resource cannot hold is
 * answered as a success that wrote nothing.</li>
 * </ul>
 * A bad value is ZStack's argument error (SYS.1007) at every level, in the core's words; the single UpdateResourceConfig
 * is checked here too, so that its bad values are argument errors as the global ones are (ZStack's handler answers
 * them as operation errors). Runs after ZStack's parameter checks and trimming (position SYSTEM), before its config
 * interceptors.
 */
public class IoModeConfigRequestGuard implements GlobalApiMessageInterceptor {

    private final ResourceConfigFacade rcf;

    public IoModeConfigRequestGuard(ResourceConfigFacade rcf) {
        this.rcf = rcf;
    }

    @Override
    public List<Class> getMessageClassToIntercept() {
        return Arrays.<Class>asList(APIUpdateGlobalConfigMsg.class, APIUpdateResourceConfigMsg.class,
                APIUpdateResourceConfigsMsg.class);
    }

    @Override
    public InterceptorPosition getPosition() {
        return InterceptorPosition.FRONT;
    }

    @Override
    public APIMessage intercept(APIMessage msg) throws ApiMessageInterceptionException {
        if (msg instanceof APIUpdateGlobalConfigMsg) {
            APIUpdateGlobalConfigMsg m = (APIUpdateGlobalConfigMsg) msg;
            refuseValue(config(m.getCategory(), m.getName()), m.getValue());
        } else if (msg instanceof APIUpdateResourceConfigMsg) {
            APIUpdateResourceConfigMsg m = (APIUpdateResourceConfigMsg) msg;
            refuseValue(config(m.getCategory(), m.getName()), m.getValue());
        } else if (msg instanceof APIUpdateResourceConfigsMsg) {
            APIUpdateResourceConfigsMsg m = (APIUpdateResourceConfigsMsg) msg;
            for (APIUpdateResourceConfigsMsg.ResourceConfigAO ao : m.getResourceConfigs()) {
                IoModeConfig c = config(ao.getCategory(), ao.getName());
                if (c == null) continue;
                refuseValue(c, ao.getValue());
                refuse(ConfigBindingRule.refusal(c, resourceType(m.getResourceUuid())));
                validateOnTheResource(c, m.getResourceUuid(), ao.getValue());
            }
        }
        return msg;
    }

    /** The module's config of this category and name, or null for any other (left to ZStack as it is). */
    private static IoModeConfig config(String category, String name) {
        return IoModeConfig.CATEGORY.equals(category) ? IoModeConfig.named(name) : null;
    }

    private static void refuseValue(IoModeConfig c, String value) {
        if (c != null) refuse(ConfigValueRule.refusal(c, value));
    }

    private static String resourceType(String resourceUuid) {
        // ZStack checked it exists (APIParam resourceType = ResourceVO); its type is what ZStack's binding compares
        return Q.New(ResourceVO.class).select(ResourceVO_.resourceType).eq(ResourceVO_.uuid, resourceUuid).findValue();
    }

    /** The resource's own rules (the core's VolumeSetRule), as ZStack's single UpdateResourceConfig answers them. */
    private void validateOnTheResource(IoModeConfig c, String resourceUuid, String value) {
        ResourceConfig rc = rcf.getResourceConfig(AioIoModeGlobalConfig.of(c).getIdentity());
        try {
            rc.validateNewValue(resourceUuid, value);
        } catch (GlobalConfigException e) {
            throw new ApiMessageInterceptionException(operr("%s", e.getMessage()));
        }
    }

    /** "%s": the sentence quotes the refused value, which may hold a format directive of its own. */
    private static void refuse(ConfigRefusal r) {
        if (r != null) throw new ApiMessageInterceptionException(argerr("%s", r.sentence()));
    }
}
