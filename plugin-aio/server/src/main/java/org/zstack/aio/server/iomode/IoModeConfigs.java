package org.zstack.aio.server.iomode;

/** The names of the configs the io-mode feature reads (defined in conf/globalConfig/kvm.yaml). */
public final class IoModeConfigs {
    public static final String CATEGORY = "kvm";
    public static final String IO_MODE = "vm.ioMode";
    public static final String ON_UNSATISFIED = "vm.ioMode.onUnsatisfied";
    public static final String ALLOW_FALLOC = "vm.ioMode.native.allowFalloc";
    public static final String CACHE_MODE = "vm.cacheMode";

    private IoModeConfigs() {
    }
}
