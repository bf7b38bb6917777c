package org.zstack.test.integration.aio

import org.zstack.core.Platform
import org.zstack.kvm.KvmRunShellMsg
import org.zstack.kvm.KvmRunShellReply
import org.zstack.testlib.EnvSpec

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit

/**
 * The simulated KVM host's answers to the module's KvmRunShellMsg calls, as a host prints them. Each call is decoded
 * as the host's shell would (plugin-core's HostScript sends {@code echo <base64> | base64 -d | sh}): which script and
 * with which arguments. The probe gets {@code probe}; a benchmark run (host-bench.sh) gets the line {@code iops}
 * gives, and makes and removes its scratch file {@code .aio-bench.TAG.XXXXXX} in {@link #dir} as the real script does
 * (a run listed in {@link #leaveFile} leaves it, as a run killed with SIGKILL would); the room check and the final
 * clean call (host-bench-scratch.sh) run the shipped script for real with {@link #dir} standing for the storage's
 * path, unless {@link #freeMiB} says how little room the storage has.
 */
class BenchHostStandIn {
    /** One call as the host received it: the script's first comment line names it, then its arguments. */
    static class Call {
        String script
        List<String> args

        String toString() { "${script} ${args}" }
    }

    String probe = AioCaseSupport.CAPABLE_HOST
    /** stands for the storage's directory on the host (its path is replaced by this one) */
    final Path dir = Files.createTempDirectory("aio-bench-host")
    final List<Call> calls = Collections.synchronizedList([])
    /** mode, depth, rw -> iops (0: the run fails as QEMU refusing the mode) */
    Closure<Long> iops = { String mode, int depth, String rw -> 1000L }
    /** when set: the room check answers that the storage has this many MiB free, and no room */
    Integer freeMiB
    /** runs (by their number from 1) whose scratch file stays, as after a SIGKILL */
    Set<Integer> leaveFile = [] as Set
    /** when set: run number {@link #holdRun} waits for {@link #release} after counting down {@link #held} */
    Integer holdRun
    CountDownLatch held = new CountDownLatch(1)
    CountDownLatch release = new CountDownLatch(1)
    private int runs

    void install(EnvSpec env) {
        env.message(KvmRunShellMsg.class) { KvmRunShellMsg msg, bus ->
            KvmRunShellReply reply = answer(msg.script)
            bus.reply(msg, reply)
        }
    }

    List<Call> benchRuns() {
        return calls.findAll { it.script == "bench" }
    }

    List<Call> scratchCalls(String verb) {
        return calls.findAll { it.script == "scratch" && it.args[0] == verb }
    }

    List<String> files() {
        return dir.toFile().list().toList().sort()
    }

    void reset() {
        calls.clear()
        freeMiB = null
        leaveFile = [] as Set
        holdRun = null
        held = new CountDownLatch(1)
        release = new CountDownLatch(1)
        runs = 0
    }

    private KvmRunShellReply answer(String script) {
        KvmRunShellReply r = new KvmRunShellReply()
        String text = decode(script)
        if (text == null) { // the probe, sent as it is
            return out(r, probe, 0)
        }
        List<String> args = args(text)
        // HostScript's text: "{", "set -- …", the script, "}"
        String body = text.substring(text.indexOf('\n', text.indexOf("set --")) + 1)
        if (body.endsWith("}\n")) body = body.substring(0, body.length() - 2)
        if (body.contains("plugin-aio storage benchmark, ONE run per call")) {
            Call c = new Call(script: "bench", args: args)
            calls.add(c)
            return bench(r, args)
        }
        if (body.contains("the two short calls around a benchmark's runs")) {
            calls.add(new Call(script: "scratch", args: args))
            if (args[0] == "room" && freeMiB != null) {
                int need = (args[2] as int) + (args[3] as int)
                return out(r, "bench-room refused=no-room ${args[1]} has ${freeMiB} MiB free; the benchmark needs ${need} MiB" +
                        " (a ${args[2]} MiB scratch image and ${args[3]} MiB left free), so nothing was run or written.\n", 3)
            }
            return real(r, body, [args[0], dir.toString()] + args.drop(2))
        }
        calls.add(new Call(script: "other", args: args))
        return out(r, probe, 0)
    }

    private KvmRunShellReply bench(KvmRunShellReply r, List<String> a) {
        int n
        synchronized (this) { n = ++runs }
        String run = "bench mode=${a[1]} depth=${a[2]} rw=${a[3]}"
        String tag = a.size() > 9 ? a[9] + "." : ""
        Path scratch = dir.resolve(".aio-bench." + tag + Platform.getUuid().substring(0, 6))
        Files.write(scratch, new byte[0])
        if (holdRun == n) {
            held.countDown()
            assert release.await(60, TimeUnit.SECONDS): "the case never released run ${n}"
        }
        if (!leaveFile.contains(n)) Files.deleteIfExists(scratch) // the script's EXIT trap
        long v = iops(a[1], a[2] as int, a[3])
        if (v <= 0) return out(r, "${run} failed=qemu-img bench -i ${a[1]} failed: Invalid argument\n", 1)
        return out(r, "${run} iops=${v}\n", 0)
    }

    /** The shipped script run for real by sh, the storage's path replaced by {@link #dir}. */
    private static KvmRunShellReply real(KvmRunShellReply r, String body, List<String> args) {
        String set = "set --" + args.collect { " '" + it.replace("'", "'\\''") + "'" }.join("")
        Process p = new ProcessBuilder("sh", "-c", set + "\n" + body).start()
        String stdout = p.inputStream.getText("UTF-8")
        String stderr = p.errorStream.getText("UTF-8")
        assert p.waitFor(30, TimeUnit.SECONDS)
        r.stdout = stdout
        r.stderr = stderr
        r.returnCode = p.exitValue()
        return r
    }

    private static KvmRunShellReply out(KvmRunShellReply r, String stdout, int rc) {
        r.stdout = stdout
        r.stderr = ""
        r.returnCode = rc
        return r
    }

    /** The text the host's sh would run, or null when the script is not HostScript's base64 form. */
    static String decode(String script) {
        def m = script =~ /^echo ([A-Za-z0-9+\/=]+) \| base64 -d \| sh\s*$/
        if (!m.find()) return null
        return new String(Base64.decoder.decode(m.group(1)), "UTF-8")
    }

    /** The arguments of the {@code set --} line ('a' 'b' ...; HostScript quotes each). */
    static List<String> args(String text) {
        String line = text.readLines().find { it.startsWith("set --") }
        List<String> out = []
        def m = line =~ /'((?:[^']|'\\'')*)'/
        while (m.find()) out.add(m.group(1).replace("'\\''", "'"))
        return out
    }
}
