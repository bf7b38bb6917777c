package org.zstack.aio.plugin;

import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.IoModeRules;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;

import java.util.List;
import java.util.Objects;

/**
 * The io-mode configs of one volume, resolved (volume → its primary storage → global, each config by its own
 * bindings; kvm/vm.ioMode with its storage kind's default standing in for the global default): the requested mode and
 * where it came from, and the policy the decision follows.
 */
public final class IoModeSettings {

    /** The values a platform read for one volume: the override at a level, or null when that level sets none. */
    public interface Values {
        /** @param level VOLUME or PRIMARY_STORAGE */
        String override(ConfigSource level, IoModeConfig config);

        /** The global value (the platform's stored one, or the default when none is stored). */
        String global(IoModeConfig config);

        /**
         * The global config's default value as the platform declares it (kvm.yaml, GlobalConfigVO.defaultValue): a
         * global value equal to it was not changed by an admin, so a storage kind's default may stand in for it.
         */
        String globalDefault(IoModeConfig config);
    }

    private final RequestedIoMode requested;
    private final ConfigSource source;
    private final DecisionPolicy policy;

    public IoModeSettings(RequestedIoMode requested, ConfigSource source, DecisionPolicy policy) {
        this.requested = requested;
        this.source = source;
        this.policy = policy;
    }

    /**
     * The settings of one volume on storage of type {@code storageType} (null: unknown, taken as file storage, which
     * has no default of its own): kvm/vm.ioMode takes the rules' default for the storage kind when no admin set it
     * anywhere ({@link ConfigFold#resolve(List, ConfigFold.Levels, String, String, String)}).
     */
    public static IoModeSettings resolve(Values values, IoModeRules rules, String storageType) {
        RequestedIoMode kindDefault = rules.kindDefault(rules.kindOf(storageType));
        IoModeConfig c = IoModeConfig.IO_MODE;
        ConfigFold.Resolved mode = ConfigFold.resolve(c.bindingTypes(), levels(c, values), values.global(c),
                values.globalDefault(c), kindDefault == null ? null : kindDefault.wire());
        return new IoModeSettings(RequestedIoMode.fromWire(mode.value()), ConfigSource.fromResourceType(mode.sourceType()),
                new DecisionPolicy(OnUnsatisfied.fromWire(resolve(IoModeConfig.ON_UNSATISFIED, values).value()),
                        Boolean.parseBoolean(resolve(IoModeConfig.ALLOW_FALLOC, values).value())));
    }

    /** One config: a level it is not bound to is never asked, so a stray override there does not count. */
    public static ConfigFold.Resolved resolve(IoModeConfig config, Values values) {
        return ConfigFold.resolve(config.bindingTypes(), levels(config, values), values.global(config));
    }

    private static ConfigFold.Levels levels(final IoModeConfig config, final Values values) {
        return new ConfigFold.Levels() {
            @Override
            public String valueAt(String resourceType) {
                return values.override(ConfigSource.fromResourceType(resourceType), config);
            }
        };
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
