package org.zstack.aio.agent.libvirt;

import org.libvirt.Library;
import org.libvirt.LibvirtException;

import java.util.logging.Logger;

/**
 * libvirt's default event loop, which delivers domain events to every connection of the process: registered once
 * per process (libvirt allows one), before the first connection that wants events, run on a daemon thread.
 */
final class LibvirtEventLoop {

    private static final Logger LOG = Logger.getLogger(LibvirtEventLoop.class.getName());
    private static boolean running;

    private LibvirtEventLoop() {
    }

    /** @return whether events can be delivered (false: the tracker's periodic sync alone keeps state right) */
    static synchronized boolean ensureRunning() {
        if (running) return true;
        try {
            Library.initEventLoop();
        } catch (LibvirtException | RuntimeException | LinkageError e) {
            LOG.warning("libvirt events unavailable, domain state is only polled: " + e);
            return false;
        }
        Thread t = new Thread(() -> {
            try {
                Library.runEventLoop();
            } catch (LibvirtException e) {
                LOG.warning("libvirt event loop ended: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "libvirt-events");
        t.setDaemon(true);
        t.start();
        running = true;
        return true;
    }
}
