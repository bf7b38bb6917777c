package org.zstack.aio.zstack;

import org.zstack.core.ansible.AnsibleFacade;
import org.zstack.core.cloudbus.CloudBus;
import org.zstack.core.cloudbus.CloudBusCallBack;
import org.zstack.core.db.Q;
import org.zstack.header.host.HostConstant;
import org.zstack.header.message.MessageReply;
import org.zstack.kvm.KVMHostVO;
import org.zstack.kvm.KVMHostVO_;
import org.zstack.kvm.KvmRunShellMsg;
import org.zstack.kvm.KvmRunShellReply;
import org.zstack.utils.ssh.Ssh;
import org.zstack.utils.ssh.SshResult;

import java.util.concurrent.TimeUnit;

/**
 * The one channel by which the module runs a short script on a KVM host: the probe, the read-back, the workload sample
 * and each benchmark run. First ZStack's own KvmRunShellMsg (KVMHost.runShell: SSH with the host's stored password,
 * synchronously inside the host's message handling, so every script sent here must be short and bounded). Where that
 * cannot log in (ZStack 5.2.0 stores a password for every host, so: one the host no longer takes, changed there or
 * password logins turned off), the same script goes over SSH with ZStack's own key, the one its host deployment installs
 * and its connect falls back to (KVMHost's connectWithPrivateKey), in the same here-document wrapping (utils'
 * Ssh.shell), on the thread that received the failed reply.
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

        static Answer failed(String why) {
            return new Answer(null, null, -1, why);
        }

        Output output() {
            if (failure != null) return new Output(null, failure);
            if (exitCode != 0) return new Output(null, "exit code " + exitCode + (stderr == null ? "" : ": " + stderr.trim()));
            return new Output(stdout == null ? "" : stdout, null);
        }
    }

    /** Receives a script's whole answer on ZStack's bus thread. */
    public interface Answered {
        void answered(Answer answer);
    }

    /** How long a script may take when the caller says nothing (the message's and the SSH run's bound). */
    static final long DEFAULT_TIMEOUT_MS = 60_000;

    /**
     * How long {@link #answer} waits for a host: its scripts end within 10 s there (host-bench.sh, host-bench-scratch.sh),
     * SSH's connect and login take the rest. Set on the message, so that a call made outside an API (the schedule) or
     * late in a long one (a long job) is not given what is left of that API's time (ZStack's default).
     */
    static final long ANSWER_TIMEOUT_MS = TimeUnit.SECONDS.toMillis(120);

    private final CloudBus bus;
    private final AnsibleFacade ansible;

    public HostShell(CloudBus bus, AnsibleFacade ansible) {
        this.bus = bus;
        this.ansible = ansible;
    }

    public void run(String hostUuid, String script, final Done done) {
        run(hostUuid, script, DEFAULT_TIMEOUT_MS, done);
    }

    /** Runs {@code script} on the host, left after {@code timeoutMs}; {@code done} gets what it printed or why not. */
    public void run(String hostUuid, String script, long timeoutMs, final Done done) {
        send(hostUuid, script, timeoutMs, a -> done.done(a.output()));
    }

    /**
     * The same channel for a script whose non-zero exit codes mean something (a benchmark run: 3 is no room): the
     * caller reads stdout, stderr and the exit code itself.
     */
    public void answer(String hostUuid, String script, final Answered answered) {
        send(hostUuid, script, ANSWER_TIMEOUT_MS, answered);
    }

    private void send(final String hostUuid, final String script, final long timeoutMs, final Answered answered) {
        KvmRunShellMsg msg = new KvmRunShellMsg();
        msg.setHostUuid(hostUuid);
        msg.setScript(script);
        msg.setTimeout(timeoutMs);
        bus.makeTargetServiceIdByResourceUuid(msg, HostConstant.SERVICE_ID, hostUuid);
        bus.send(msg, new CloudBusCallBack(null) {
            @Override
            public void run(MessageReply reply) {
                // a reply with an error is a login ZStack's password could not make (a script that ran has an exit code)
                answered.answered(reply.isSuccess() ? answerOf((KvmRunShellReply) reply)
                        : withKey(hostUuid, script, timeoutMs, reply.getError().getReadableDetails()));
            }
        });
    }

    /** The script over SSH with ZStack's key, after the stored password failed with {@code passwordFailure}. */
    private Answer withKey(String hostUuid, String script, long timeoutMs, String passwordFailure) {
        String key = ansible.getPrivateKey();
        KVMHostVO host = Q.New(KVMHostVO.class).eq(KVMHostVO_.uuid, hostUuid).find();
        if (key == null || host == null) {
            return Answer.failed(passwordFailure + (key == null ? "; ZStack has no SSH key to try" : ""));
        }
        SshResult r = new Ssh().setHostname(host.getManagementIp()).setPort(host.getPort()).setUsername(host.getUsername())
                .setPrivateKey(key).setExecTimeout((int) Math.max(1, timeoutMs / 1000)).setSuppressException(true)
                .shell(script).runAndClose();
        if (r.isSshFailure()) {
            return Answer.failed(passwordFailure + "; with ZStack's SSH key: " + r.getExitErrorMessage());
        }
        return new Answer(r.getStdout() == null ? "" : r.getStdout(), r.getStderr() == null ? "" : r.getStderr(),
                r.getReturnCode(), null);
    }

    private static Answer answerOf(KvmRunShellReply r) {
        return new Answer(r.getStdout() == null ? "" : r.getStdout(), r.getStderr() == null ? "" : r.getStderr(),
                r.getReturnCode(), null);
    }

    static Output outputOf(MessageReply reply) {
        return reply.isSuccess() ? answerOf((KvmRunShellReply) reply).output()
                : Answer.failed(reply.getError().getReadableDetails()).output();
    }
}
