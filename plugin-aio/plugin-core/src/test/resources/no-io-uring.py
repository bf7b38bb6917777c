# Runs a command under a seccomp filter that refuses io_uring_setup(2) with EPERM, as the default seccomp profiles of
# Docker 25 and containerd 2.0 do (moby/moby PR 46762): the seccomp-io_uring rule's host, made for real on this one.
# Usage: python3 no-io-uring.py CMD [ARG...]   (x86_64 and aarch64: io_uring_setup is syscall 425 on both)
import ctypes
import os
import struct
import sys

libc = ctypes.CDLL(None, use_errno=True)


def insn(code, jt, jf, k):
    return struct.pack("HBBI", code, jt, jf, k)


# load the syscall number; io_uring_setup -> errno EPERM; anything else -> allow
prog = (insn(0x20, 0, 0, 0) + insn(0x15, 0, 1, 425) + insn(0x06, 0, 0, 0x00050000 | 1) + insn(0x06, 0, 0, 0x7fff0000))
buf = ctypes.create_string_buffer(prog)


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


fprog = SockFprog(4, ctypes.cast(buf, ctypes.c_void_p))
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
    sys.stderr.write("cannot install the seccomp filter: errno %d\n" % ctypes.get_errno())
    sys.exit(2)
os.execvp(sys.argv[1], sys.argv[1:])
