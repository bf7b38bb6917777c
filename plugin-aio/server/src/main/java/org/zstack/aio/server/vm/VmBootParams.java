package org.zstack.aio.server.vm;

import com.fasterxml.jackson.databind.JsonNode;
import org.zstack.aio.agent.api.GuestBoot;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Bodies;
import org.zstack.aio.server.api.Inputs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The optional direct-boot part of a VM create ({@code params.boot} = {kernel, initrd, cmdline, consoleLog} and
 * {@code params.accel} = kvm|tcg): what lets a test or an appliance boot a kernel without a disk image, e.g. a tiny
 * guest that runs a workload. The agent runs QEMU as root, so every path must lie inside a file or block storage
 * the platform knows (the agent enforces the same on its side).
 *
 * @param boot  null: boot from the first disk
 * @param accel null: the host's default (kvm when it has it)
 */
public record VmBootParams(GuestBoot boot, String accel) {

    static final Set<String> FIELDS = Set.of("kernel", "initrd", "cmdline", "consoleLog");

    /**
     * @param storageUrls the urls of the file and block storages: the only directories the paths may lie in
     */
    public static VmBootParams parse(JsonNode params, Collection<String> storageUrls) {
        String accel = Bodies.optText(params, "accel");
        if (accel != null && !VmStartCmd.ACCELS.contains(accel)) {
            throw ApiException.badRequest("'accel' is '" + accel + "', not one of " + VmStartCmd.ACCELS + ".",
                    "Send \"tcg\" for an emulated CPU (libvirt domain type qemu), \"kvm\", or leave accel out.");
        }
        JsonNode b = params.get("boot");
        if (b == null || b.isNull()) return new VmBootParams(null, accel);
        if (!b.isObject()) {
            throw ApiException.badRequest("field 'boot' must be a JSON object, not " + Bodies.typeOf(b) + ".",
                    "Send \"boot\":{\"kernel\":\"/storage/dir/vmlinuz\",\"initrd\":...,\"cmdline\":...} or leave it out.");
        }
        List<String> unknown = new ArrayList<>();
        b.fieldNames().forEachRemaining(f -> { if (!FIELDS.contains(f)) unknown.add(f); });
        if (!unknown.isEmpty()) {
            throw ApiException.badRequest("'boot' has unknown field(s) " + unknown + ".", "A boot has only " + FIELDS.stream().sorted().toList() + ".");
        }
        String kernel = Bodies.optText(b, "kernel");
        if (kernel == null || kernel.isEmpty()) {
            throw ApiException.badRequest("'boot.kernel' is required when 'boot' is given.",
                    "Send the path of a kernel image inside a primary storage directory, or leave 'boot' out.");
        }
        String cmdline = Bodies.optText(b, "cmdline");
        String problem = GuestBoot.cmdlineProblem(cmdline);
        if (problem != null) {
            throw ApiException.badRequest("'boot.cmdline' " + problem + ".",
                    "Send printable ASCII of at most " + GuestBoot.MAX_CMDLINE + " characters.");
        }
        List<Path> roots = storageUrls.stream().filter(u -> u != null && u.startsWith("/")).map(u -> Path.of(u).normalize()).toList();
        return new VmBootParams(new GuestBoot(inside("kernel", kernel, roots), inside("initrd", Bodies.optText(b, "initrd"), roots),
                cmdline, inside("consoleLog", Bodies.optText(b, "consoleLog"), roots)), accel);
    }

    private static String inside(String field, String path, List<Path> roots) {
        if (path == null) return null;
        Path p = Path.of(Inputs.absolutePath(path, "boot." + field));
        if (roots.stream().noneMatch(r -> p.startsWith(r) && !p.equals(r))) {
            throw ApiException.badRequest("'boot." + field + "' " + p + " is not inside a primary storage.",
                    "Put the file in a file or block primary storage's directory (GET /v1/primary-storage shows their urls).");
        }
        return path;
    }
}
