package org.zstack.aio.plugin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One read-back of a host as a platform hands it to the use case ({@link DiskIoModes#readBack}): the VMs the platform
 * believes run there with their volumes, each volume's image path as QEMU opens it (to find a disk without its
 * serial), what conf/aio/read-back.sh printed there (or why it printed nothing), and when.
 */
public final class ReadBackRequest {

    private final HostRef host;
    private final Map<String, List<String>> volumesByVm;
    private final Map<String, String> imagePaths;
    private final String output;
    private final String failure;
    private final String at;

    private ReadBackRequest(HostRef host, Map<String, List<String>> volumesByVm, Map<String, String> imagePaths, String output,
                            String failure, String at) {
        this.host = Objects.requireNonNull(host, "host");
        Map<String, List<String>> v = new LinkedHashMap<String, List<String>>();
        for (Map.Entry<String, List<String>> e : volumesByVm.entrySet()) {
            v.put(e.getKey(), Collections.unmodifiableList(new ArrayList<String>(e.getValue())));
        }
        this.volumesByVm = Collections.unmodifiableMap(v);
        this.imagePaths = imagePaths == null ? Collections.<String, String>emptyMap()
                : Collections.unmodifiableMap(new LinkedHashMap<String, String>(imagePaths));
        this.output = output;
        this.failure = failure;
        this.at = Objects.requireNonNull(at, "at");
    }

    /**
     * What the read-back printed on {@code host} for these VMs, read at {@code at} (ISO-8601 UTC).
     *
     * @param volumesByVm each VM the read-back was for (its domain's name: its uuid) and its volumes
     * @param imagePaths  each volume's image as QEMU opens it, by volume uuid (may be empty)
     */
    public static ReadBackRequest printed(HostRef host, Map<String, List<String>> volumesByVm, Map<String, String> imagePaths,
                                          String output, String at) {
        return new ReadBackRequest(host, volumesByVm, imagePaths, Objects.requireNonNull(output, "output"), null, at);
    }

    /** A read-back that printed nothing: SSH failed, the script exited non-zero, the call timed out. */
    public static ReadBackRequest failed(HostRef host, Map<String, List<String>> volumesByVm, String failure, String at) {
        return new ReadBackRequest(host, volumesByVm, null, null, Objects.requireNonNull(failure, "failure"), at);
    }

    public HostRef host() { return host; }

    public Map<String, List<String>> volumesByVm() { return volumesByVm; }

    public Map<String, String> imagePaths() { return imagePaths; }

    /** What the script printed; null when it failed. */
    public String output() { return output; }

    /** Why it printed nothing; null when it ran. */
    public String failure() { return failure; }

    public String at() { return at; }

    /** Every volume of every VM, in order. */
    List<String> volumeUuids() {
        List<String> out = new ArrayList<String>();
        for (List<String> l : volumesByVm.values()) out.addAll(l);
        return out;
    }
}
