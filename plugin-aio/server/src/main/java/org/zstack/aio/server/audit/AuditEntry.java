package org.zstack.aio.server.audit;

/**
 * What an audit row says changed. {@code action} is the API's operation name (UpdateGlobalConfig, StartVmInstance...);
 * {@code resourceName} names the thing for a person (the config "kvm/vm.ioMode", a host's or VM's name).
 */
public record AuditEntry(String action, String resourceType, String resourceUuid, String resourceName,
                         String oldValue, String newValue) {

    /** A change of a global config: there is no resource uuid, the config's identity names it. */
    public static AuditEntry globalConfig(String category, String name, String oldValue, String newValue) {
        return new AuditEntry("UpdateGlobalConfig", "GlobalConfigVO", null, category + "/" + name, oldValue, newValue);
    }
}
