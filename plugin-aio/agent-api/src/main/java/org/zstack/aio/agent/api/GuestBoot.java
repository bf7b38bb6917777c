package org.zstack.aio.agent.api;

/**
 * A direct kernel boot (QEMU {@code -kernel/-initrd/-append}): the guest starts from these files instead of its
 * first disk, and its serial console goes to a file. Every path lies under a storage the host registered (the
 * agent refuses anything else, like a disk's path).
 *
 * @param kernel     the kernel image, required
 * @param initrd     the initramfs, or null
 * @param cmdline    the kernel command line, or null
 * @param consoleLog the file the guest's serial console is written to, or null (no serial device)
 */
public record GuestBoot(String kernel, String initrd, String cmdline, String consoleLog) {

    /** Longest kernel command line sent (x86's COMMAND_LINE_SIZE is 2048; keep room for what QEMU adds). */
    public static final int MAX_CMDLINE = 1024;

    /** Why this command line cannot be handed to the guest, or null when it can: printable ASCII only. */
    public static String cmdlineProblem(String cmdline) {
        if (cmdline == null) return null;
        if (cmdline.length() > MAX_CMDLINE) return "is " + cmdline.length() + " characters, more than " + MAX_CMDLINE;
        for (int i = 0; i < cmdline.length(); i++) {
            char c = cmdline.charAt(i);
            if (c < 0x20 || c > 0x7e) return "holds a character that is not printable ASCII at position " + i;
        }
        return null;
    }
}
