package org.zstack.aio.zstack;

import org.zstack.aio.plugin.ReadBackResult;
import org.zstack.header.message.NeedJsonSchema;

/**
 * The data of the canonical event {@link IoModeReadBack#DISAGREEMENT_PATH}: a disk that does not run what its decision
 * says, as a read-back found it. A CanonicalEvent webhook receives it as the event's {@code content}.
 */
@NeedJsonSchema
public class IoModeDisagreement {
    /** the VM's uuid */
    private String vm;
    /** the volume's uuid */
    private String volume;
    /** the host's uuid */
    private String host;
    /** the decision's mode (threads, native, io_uring) */
    private String decided;
    /** what the disk runs; null when its disk was not found in the running domain */
    private String running;
    /** the one sentence, plugin-core's (the same the log says) */
    private String sentence;

    static IoModeDisagreement of(ReadBackResult.Disagreement d) {
        IoModeDisagreement e = new IoModeDisagreement();
        e.vm = d.vmUuid();
        e.volume = d.volumeUuid();
        e.host = d.hostUuid();
        e.decided = d.decided();
        e.running = d.runs();
        e.sentence = d.sentence();
        return e;
    }

    public String getVm() {
        return vm;
    }

    public String getVolume() {
        return volume;
    }

    public String getHost() {
        return host;
    }

    public String getDecided() {
        return decided;
    }

    public String getRunning() {
        return running;
    }

    public String getSentence() {
        return sentence;
    }
}
