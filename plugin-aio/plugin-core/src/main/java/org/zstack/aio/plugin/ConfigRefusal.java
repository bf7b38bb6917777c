package org.zstack.aio.plugin;

/**
 * Why a config value is refused when it is set, in the words both platforms answer with: what is wrong, and what to do.
 * The standalone server puts them in its error body's description and details; ZStack's module gives ZStack's config
 * error the whole {@link #sentence()}.
 */
public final class ConfigRefusal {

    private final String description;
    private final String whatToDo;

    public ConfigRefusal(String description, String whatToDo) {
        this.description = description;
        this.whatToDo = whatToDo;
    }

    /** What is wrong, one sentence. */
    public String description() { return description; }

    /** What to do instead, one sentence. */
    public String whatToDo() { return whatToDo; }

    public String sentence() { return description + " " + whatToDo; }

    @Override
    public String toString() { return sentence(); }
}
