package org.zstack.aio.plugin;

/**
 * Why an operation cannot give a disk its io mode, in the core's words for every platform: one sentence naming the
 * volume, the mode and what refused it, and one saying what to do. The standalone server answers it as its 409 error
 * body (description, details); ZStack as an operation error.
 */
public final class IoModeRefusal {

    private final String volumeUuid;
    private final String sentence;
    private final String whatToDo;

    public IoModeRefusal(String volumeUuid, String sentence, String whatToDo) {
        this.volumeUuid = volumeUuid;
        this.sentence = sentence;
        this.whatToDo = whatToDo;
    }

    public String volumeUuid() { return volumeUuid; }

    /** e.g. "volume data (uuid) cannot run native: check native-cache failed: ..." */
    public String sentence() { return sentence; }

    /** e.g. "Fix what the check names, ..." */
    public String whatToDo() { return whatToDo; }

    /** Both sentences, for a platform whose error has one text. */
    public String text() { return sentence.endsWith(".") ? sentence + " " + whatToDo : sentence + ". " + whatToDo; }

    @Override
    public String toString() { return text(); }
}
