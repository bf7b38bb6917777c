package org.zstack.aio.plugin;

import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;

import java.util.Objects;

/**
 * The io-mode configs of one volume, resolved (volume → its primary storage → global, each config by its own
 * bindings): the requested mode and where it came from, and the policy the decision follows.
 */
public final class IoModeSettings {

    /** The values a platform read for one volume: the override at a level, or null when that level sets none. */
    public interface Values {
        /** @param level VOLUME or PRIMARY_STORAGE */
        String override(ConfigSource level, IoModeConfig config);

        /** The global value (the platform's stored one, or the default when none is stored). */
        String global(IoModeConfig config);
    }

    private final RequestedIoMode requested;
    private final ConfigSource source;
    private final DecisionPolicy policy;

    public IoModeSettings(RequestedIoMode requested, ConfigSource source, DecisionPolicy policy) {
        this.requested = requested;
        this.source = source;
        this.policy = policy;
    }

    public static IoModeSettings resolve(Values values) {
        ConfigFold.Resolved mode = resolve(IoModeConfig.IO_MODE, values);
        return new IoModeSettings(RequestedIoMode.fromWire(mode.value()), ConfigSource.fromResourceType(mode.sourceType()),
                new DecisionPolicy(OnUnsatisfied.fromWire(resolve(IoModeConfig.ON_UNSATISFIED, values).value()),
                        Boolean.parseBoolean(resolve(IoModeConfig.ALLOW_FALLOC, values).value())));
    }

    /** One config: a level it is not bound to is never asked, so a stray override there does not count. */
    public static ConfigFold.Resolved resolve(final IoModeConfig config, final Values values) {
        return ConfigFold.resolve(config.bindingTypes(), new ConfigFold.Levels() {
            @Override
            public String valueAt(String resourceType) {
                return values.override(ConfigSource.fromResourceType(resourceType), config);
            }
        }, values.global(config));
    }

    public RequestedIoMode requested() { return requested; }

    public ConfigSource source() { return source; }

    public DecisionPolicy policy() { return policy; }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof IoModeSettings)) return false;
        IoModeSettings s = (IoModeSettings) o;
        return requested == s.requested && source == s.source && policy.equals(s.policy);
    }

    @Override
    public int hashCode() { return Objects.hash(requested, source, policy); }

    @Override
    public String toString() { return "IoModeSettings[" + requested + " from " + source + ", " + policy + "]"; }
}
