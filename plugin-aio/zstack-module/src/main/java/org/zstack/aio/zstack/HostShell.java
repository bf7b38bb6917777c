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

    /** How long a script may take when the caller says nothing (the message's and the SSH run's bound). */
    static final long DEFAULT_TIMEOUT_MS = 60_000;

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
    public void run(final String hostUuid, final String script, final long timeoutMs, final Done done) {
        KvmRunShellMsg msg = new KvmRunShellMsg();
        msg.setHostUuid(hostUuid);
        msg.setScript(script);
        msg.setTimeout(timeoutMs);
        bus.makeTargetServiceIdByResourceUuid(msg, HostConstant.SERVICE_ID, hostUuid);
        bus.send(msg, new CloudBusCallBack(null) {
            @Override
            public void run(MessageReply reply) {
                // a reply with an error is a login ZStack's password could not make (a script that ran has an exit code)
                done.done(reply.isSuccess() ? outputOf(reply) : withKey(hostUuid, script, timeoutMs, reply.getError().getReadableDetails()));
            }
        });
    }

    /** The script over SSH with ZStack's key, after the stored password failed with {@code passwordFailure}. */
    private Output withKey(String hostUuid, String script, long timeoutMs, String passwordFailure) {
        String key = ansible.getPrivateKey();
        KVMHostVO host = Q.New(KVMHostVO.class).eq(KVMHostVO_.uuid, hostUuid).find();
        if (key == null || host == null) {
            return new Output(null, passwordFailure + (key == null ? "; ZStack has no SSH key to try" : ""));
        }
        SshResult r = new Ssh().setHostname(host.getManagementIp()).setPort(host.getPort()).setUsername(host.getUsername())
                .setPrivateKey(key).setExecTimeout((int) Math.max(1, timeoutMs / 1000)).setSuppressException(true)
                .shell(script).runAndClose();
        if (r.isSshFailure()) {
            return new Output(null, passwordFailure + "; with ZStack's SSH key: " + r.getExitErrorMessage());
        }
        return exited(r.getReturnCode(), r.getStdout(), r.getStderr());
    }

    static Output outputOf(MessageReply reply) {
        if (!reply.isSuccess()) return new Output(null, reply.getError().getReadableDetails());
        KvmRunShellReply r = (KvmRunShellReply) reply;
        return exited(r.getReturnCode(), r.getStdout(), r.getStderr());
    }

    private static Output exited(int code, String stdout, String stderr) {
        if (code != 0) return new Output(null, "exit code " + code + (stderr == null ? "" : ": " + stderr.trim()));
        return new Output(stdout == null ? "" : stdout, null);
    }
}
