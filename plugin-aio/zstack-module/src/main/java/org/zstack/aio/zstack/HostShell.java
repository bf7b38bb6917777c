package org.zstack.aio.zstack;

import org.zstack.core.cloudbus.CloudBus;
import org.zstack.core.cloudbus.CloudBusCallBack;
import org.zstack.header.host.HostConstant;
import org.zstack.header.message.MessageReply;
import org.zstack.kvm.KvmRunShellMsg;
import org.zstack.kvm.KvmRunShellReply;

import java.util.concurrent.TimeUnit;

/**
 * The one channel by which the module runs a short script on a KVM host: the probe, the read-back, the workload sample
 * and each benchmark run. Today ZStack's own KvmRunShellMsg (KVMHost.runShell: SSH with the host's stored password,
 * synchronously inside the host's message handling, so every script sent here must be short and bounded).
 */
public class HostShell {

    /** What a script printed, or why it printed nothing (exactly one of the two is set). */
    public static final class Output {
        public final String stdout;
        public final String failure;

        Output(String stdout, String failure) {
            this.stdout = stdout;
            this.failure = failure;
        }

        public boolean ok() {
            return failure == null;
        }
    }

    /** Receives the script's output on ZStack's bus thread. */
    public interface Done {
        void done(Output output);
    }

    /** What a script printed, all of it (stdout, stderr, exit code), or why it could not be run (failure set). */
    public static final class Answer {
        public final String stdout;
        public final String stderr;
        public final int exitCode;
        public final String failure;

        Answer(String stdout, String stderr, int exitCode, String failure) {
            this.stdout = stdout;
            this.stderr = stderr;
            this.exitCode = exitCode;
            this.failure = failure;
        }
    }

    /** Receives a script's whole answer on ZStack's bus thread. */
    public interface Answered {
        void answered(Answer answer);
    }

    private final CloudBus bus;

    public HostShell(CloudBus bus) {
        this.bus = bus;
    }

    /**
     * How long {@link #answer} waits for a host: its scripts end within 10 s there (host-bench.sh, host-bench-scratch.sh),
     * SSH's connect and login take the rest. Set on the message, so that a call made outside an API (the schedule) or
     * late in a long one (a long job) is not given what is left of that API's time (ZStack's default).
     */
    static final long ANSWER_TIMEOUT_MS = TimeUnit.SECONDS.toMillis(120);

    public void run(String hostUuid, String script, final Done done) {
        send(hostUuid, script, -1, reply -> done.done(outputOf(reply)));
    }

    private void send(String hostUuid, String script, long timeoutMs, java.util.function.Consumer<MessageReply> replied) {
        KvmRunShellMsg msg = new KvmRunShellMsg();
        msg.setHostUuid(hostUuid);
        msg.setScript(script);
        if (timeoutMs > 0) msg.setTimeout(timeoutMs);
        bus.makeTargetServiceIdByResourceUuid(msg, HostConstant.SERVICE_ID, hostUuid);
        bus.send(msg, new CloudBusCallBack(null) {
            @Override
            public void run(MessageReply reply) {
                replied.accept(reply);
            }
        });
    }

    /**
     * The same channel for a script whose non-zero exit codes mean something (a benchmark run: 3 is no room): the
     * caller reads stdout, stderr and the exit code itself.
     */
    public void answer(String hostUuid, String script, final Answered answered) {
        send(hostUuid, script, ANSWER_TIMEOUT_MS, reply -> {
            if (!reply.isSuccess()) {
                answered.answered(new Answer(null, null, -1, reply.getError().getReadableDetails()));
                return;
            }
            KvmRunShellReply r = (KvmRunShellReply) reply;
            answered.answered(new Answer(r.getStdout() == null ? "" : r.getStdout(), r.getStderr() == null ? "" : r.getStderr(),
                    r.getReturnCode(), null));
        });
    }

    static Output outputOf(MessageReply reply) {
        if (!reply.isSuccess()) return new Output(null, reply.getError().getReadableDetails());
        KvmRunShellReply r = (KvmRunShellReply) reply;
        if (r.getReturnCode() != 0) {
            return new Output(null, "exit code " + r.getReturnCode() + (r.getStderr() == null ? "" : ": " + r.getStderr().trim()));
        }
        return new Output(r.getStdout() == null ? "" : r.getStdout(), null);
    }
}
