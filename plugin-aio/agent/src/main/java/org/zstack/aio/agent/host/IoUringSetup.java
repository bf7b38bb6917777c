package org.zstack.aio.agent.host;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import org.zstack.aio.decision.HostFacts;

import java.util.Map;

/**
 * {@link HostFacts#IO_URING_SETUP}: whether this process may create an io_uring at all, by calling io_uring_setup(2)
 * for a one-entry ring and closing it. The answer covers what a qemu-img or QEMU started from here inherits (the
 * sysctl, a seccomp filter, SELinux, RLIMIT_MEMLOCK on kernels before 5.12); QEMU's own words hide it on QEMU 8.2 to
 * 10.1, which fall back to threads with only a warning.
 */
final class IoUringSetup {

    /** io_uring_setup's number in the generic syscall table (x86_64 and aarch64 alike). */
    private static final long SYS_IO_URING_SETUP = 425;
    /** sizeof(struct io_uring_params): zeroed, the kernel fills it in. */
    private static final int PARAMS_SIZE = 120;

    /** Errno names on x86_64 and aarch64 (asm-generic/errno-base.h, errno.h) the setup can fail with. */
    private static final Map<Integer, String> ERRNO = Map.of(1, "EPERM", 12, "ENOMEM", 13, "EACCES", 14, "EFAULT",
            22, "EINVAL", 23, "ENFILE", 24, "EMFILE", 38, "ENOSYS");

    interface LibC extends Library {
        long syscall(long number, int entries, Pointer params) throws LastErrorException;

        int close(int fd) throws LastErrorException;
    }

    private IoUringSetup() {
    }

    /** "ok", the errno's name, or null where the call cannot be made (another architecture, no libc through JNA). */
    static String probe() {
        String arch = System.getProperty("os.arch");
        if (!"amd64".equals(arch) && !"x86_64".equals(arch) && !"aarch64".equals(arch)) return null;
        LibC c;
        try {
            c = Native.load("c", LibC.class);
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            return null;
        }
        try (Memory params = new Memory(PARAMS_SIZE)) {
            params.clear();
            int fd = (int) c.syscall(SYS_IO_URING_SETUP, 1, params);
            c.close(fd);
            return "ok";
        } catch (LastErrorException e) {
            return errnoName(e.getErrorCode());
        }
    }

    static String errnoName(int errno) {
        String name = ERRNO.get(errno);
        return name != null ? name : "E" + errno;
    }
}
