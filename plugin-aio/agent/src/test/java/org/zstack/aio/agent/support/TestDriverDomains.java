package org.zstack.aio.agent.support;

import org.libvirt.Connect;
import org.libvirt.LibvirtException;

import java.util.Arrays;

/** Questions about domains on a libvirt connection that tests ask. */
public final class TestDriverDomains {

    private TestDriverDomains() {
    }

    /** Whether a domain of that name is defined or running. */
    public static boolean defined(Connect libvirt, String name) throws LibvirtException {
        return Arrays.asList(libvirt.listDefinedDomains()).contains(name)
                || Arrays.stream(libvirt.listDomains()).anyMatch(id -> {
                    try {
                        return libvirt.domainLookupByID(id).getName().equals(name);
                    } catch (LibvirtException e) {
                        return false;
                    }
                });
    }
}
