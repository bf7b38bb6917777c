package org.zstack.test.integration.aio

/**
 * The generators of AioIoModeBadInputCase: the module's configs with their valid values and bindings, and the bad
 * values and targets the case crosses them with. Each value is bad for the config it is sent to: ZStack's API trims
 * white space (Java's trim: every character up to U+0020, so tabs, newlines and NUL too) around a string parameter,
 * so a valid value wrapped in those is not bad and is not generated here (the case checks it separately). A character
 * beyond the Basic Multilingual Plane (an emoji) is not in the battery either: ZStack's REST job store cannot hold it
 * (the case checks that separately too).
 */
class AioBadInputs {
    static final String IO_MODE = "vm.ioMode"
    static final String ON_UNSATISFIED = "vm.ioMode.onUnsatisfied"
    static final String ALLOW_FALLOC = "vm.ioMode.native.allowFalloc"

    /** config -> its valid values, as the core's IoModeConfig declares them */
    static final Map<String, List<String>> VALID = [
            (IO_MODE)       : ["threads", "native", "io_uring", "auto"],
            (ON_UNSATISFIED): ["fallback", "fail"],
            (ALLOW_FALLOC)  : ["true", "false"],
    ]

    /** config -> a valid value of another config: valid-looking, bound wrong */
    static final Map<String, String> OTHER_CONFIGS_VALUE = [
            (IO_MODE)       : "fallback",
            (ON_UNSATISFIED): "native",
            (ALLOW_FALLOC)  : "io_uring",
    ]

    /** config -> the resource types ZStack binds it to (IoModeConfig's bindings, AioIoModeGlobalConfig) */
    static final Map<String, List<String>> BOUND_TO = [
            (IO_MODE)       : ["volume", "primaryStorage"],
            (ON_UNSATISFIED): [],
            (ALLOW_FALLOC)  : ["primaryStorage"],
    ]

    /** kind -> value: every one refused for {@code config}, whichever target it is sent to. */
    static Map<String, String> badValues(String config) {
        String v = VALID[config][0]
        Map<String, String> m = [:]
        m["empty"] = ""
        m["spaces only"] = "   "
        m["tab and newline only"] = "\t\n"
        m["wrong case"] = v.capitalize()
        m["upper case"] = v.toUpperCase()
        m["unknown word"] = "fast"
        m["another config's value"] = OTHER_CONFIGS_VALUE[config]
        m["1 MB"] = "n" * (1 << 20)
        m["accented"] = "nátive"
        m["Japanese"] = "ネイティブ"
        m["no-break space"] = "\u00a0" + v
        m["zero-width space"] = v + "\u200b"
        m["space inside"] = v.substring(0, 2) + " " + v.substring(2)
        m["NUL inside"] = v.substring(0, 2) + "\u0000" + v.substring(2)
        m["newline inside"] = v.substring(0, 2) + "\n" + v.substring(2)
        m["SQL injection"] = "native'; DROP TABLE VolumeVO; --"
        m["SQL tautology"] = "' OR '1'='1"
        m["JSON object"] = '{"value":"' + v + '"}'
        m["JSON array"] = '["' + v + '"]'
        m["XML"] = '<driver io="' + v + '"/>'
        m["JNDI lookup"] = '${jndi:ldap://127.0.0.1:1389/a}'
        m["ZStack template"] = "{kvm.vm.ioMode}"
        m["format directives"] = "%s%n%d" + v
        m["huge number"] = "9" * 40
        m["negative number"] = "-1"
        m["one"] = "1"
        m["zero"] = "0"
        m["float overflow"] = "1e309"
        m["null word"] = "null"
        m["two values"] = VALID[config].join(",")
        return m
    }

    /** A few bad values for crossing with every wrong target (the full list is sent to the right targets). */
    static Map<String, String> someBadValues(String config) {
        return badValues(config).subMap(["unknown word", "SQL injection", "Japanese"])
    }
}
