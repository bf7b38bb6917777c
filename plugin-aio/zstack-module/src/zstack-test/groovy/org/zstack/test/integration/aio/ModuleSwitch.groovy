package org.zstack.test.integration.aio

import org.zstack.core.Platform
import org.zstack.core.componentloader.PluginRegistry
import org.zstack.core.componentloader.PluginRegistryImpl
import org.zstack.header.Component
import org.zstack.header.Service
import org.zstack.kvm.KVMExtensionEmitter
import org.zstack.kvm.KVMStartVmExtensionPoint

import java.lang.reflect.InvocationHandler
import java.lang.reflect.InvocationTargetException
import java.lang.reflect.Method
import java.lang.reflect.Proxy
import java.util.concurrent.atomic.AtomicLong

/**
 * Takes plugin-aio's extensions out of ZStack's PluginRegistry and puts them back where they were, so a VM start
 * runs ZStack's own path with none of the module's code ("off"), not the module told to do nothing. ZStack's
 * callers read the registry's lists (PluginRegistryImpl.getExtensionList hands out the list it keeps; FilterFlow
 * asks at each allocation; KVMExtensionEmitter keeps that same list object from boot), so an instance removed from
 * the list is gone from their loops. Component and Service stay: ZStack walks them at boot and shutdown only, and
 * the module's service answers its own APIs, not the start.
 */
class ModuleSwitch {
    private static class Removed {
        List list
        int index
        Object instance
    }

    private final Map<Class, List> lists
    private final List startExts
    private final List<Removed> removed = []

    ModuleSwitch() {
        PluginRegistry registry = Platform.getComponentLoader().getComponent(PluginRegistry.class)
        lists = (Map<Class, List>) ((PluginRegistryImpl) registry).@extensionsByInterfaceClass
        startExts = registry.getExtensionList(KVMStartVmExtensionPoint.class)
        // what makes "off" real for the start: the emitter loops over the registry's own list
        KVMExtensionEmitter emitter = Platform.getComponentLoader().getComponent(KVMExtensionEmitter.class)
        assert emitter.@startVmExts.is(registry.getExtensionList(KVMStartVmExtensionPoint.class))
        assert registry.getExtensionList(KVMStartVmExtensionPoint.class).any { module(it) }: "the module is not registered"
    }

    static boolean module(Object extension) {
        return extension.class.name.startsWith(ModuleSqlCounter.MODULE_PACKAGE)
    }

    boolean isOff() {
        return !removed.isEmpty()
    }

    /** Removes every extension of the module (but Component and Service) from the registry. */
    void off() {
        assert !isOff()
        lists.each { Class iface, List exts ->
            if (iface == Component.class || iface == Service.class) return
            for (int i = exts.size() - 1; i >= 0; i--) {
                if (module(exts[i])) removed.add(new Removed(list: exts, index: i, instance: exts.remove(i)))
            }
        }
        assert isOff(): "no extension of the module found in the registry"
    }

    /** Puts them back, each at its place in its list (order matters to ZStack's loops). */
    void on() {
        removed.reverse().each { Removed r -> r.list.add(r.index, r.instance) }
        removed.clear()
    }

    /**
     * Runs {@code c} with each of the module's start extensions behind a proxy that adds up the time spent in its calls
     * (beforeStartVmOnKvm, startVmOnKvmSuccess/Failed: deciding, the hook, its reads and the stored decisions; handing
     * the VM to the read-back, which runs later on another thread), in nanoseconds into {@code spent} (and, when given,
     * into {@code byMethod} under each method's name, summed over the module's extensions); the module itself runs
     * unchanged, in its places in the list.
     */
    void timingStarts(AtomicLong spent, Closure c, Map<String, AtomicLong> byMethod = null) {
        List<Integer> at = (0..<startExts.size()).findAll { module(startExts[it]) }
        assert !at.isEmpty() && !isOff()
        Map<Integer, Object> real = at.collectEntries { [(it): startExts[it]] }
        at.each { int i ->
            Object ext = real[i]
            startExts[i] = Proxy.newProxyInstance(ModuleSwitch.class.classLoader, [KVMStartVmExtensionPoint] as Class[], { Object p, Method m, Object[] args ->
                long t0 = System.nanoTime()
                try {
                    return m.invoke(ext, args)
                } catch (InvocationTargetException e) {
                    throw e.cause
                } finally {
                    long ns = System.nanoTime() - t0
                    spent.addAndGet(ns)
                    if (byMethod != null) byMethod.computeIfAbsent(m.name) { new AtomicLong() }.addAndGet(ns)
                }
            } as InvocationHandler)
        }
        try {
            c()
        } finally {
            real.each { int i, Object ext -> startExts[i] = ext }
        }
    }
}
