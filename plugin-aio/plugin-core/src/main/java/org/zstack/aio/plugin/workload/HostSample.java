package org.zstack.aio.plugin.workload;

import org.zstack.aio.plugin.workload.WorkloadFold.Counters;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What conf/aio/host-sample.sh printed on one host: the host's clock, each running domain's libvirt id
 * ({@code virsh list}) and each of its disks' cumulative counters ({@code virsh domstats --block}), in libvirt's
 * standard formats:
 * <pre>
 * sample at=1795772681
 * --- virsh list
 *  Id   Name                                   State
 * -------------------------------------------------------
 *  4    a1b2c3d4e5f60718293a4b5c6d7e8f90       running
 * --- virsh domstats --block
 * Domain: 'a1b2c3d4e5f60718293a4b5c6d7e8f90'
 *   block.count=2
 *   block.0.name=vda
 *   block.0.path=/zstack_ps/rootVolumes/acct-x/vol-u/u.qcow2
 *   block.0.rd.reqs=1   block.0.rd.bytes=512   block.0.rd.times=2221122   (one per line)
 *   block.0.wr.reqs=0   block.0.wr.bytes=0     block.0.wr.times=0
 *   ...
 * </pre>
 * Field names are libvirt's ({@code virConnectGetAllDomainStats}, VIR_DOMAIN_STATS_BLOCK: times in ns, the sum over
 * requests of submission to completion). With {@code --backing} libvirt lists a disk's backing images after it under
 * the same name; the first entry of a name is the disk itself, and only it counts. A disk whose counters are
 * missing or not numbers is kept with why, and folds nothing.
 */
public final class HostSample {

    private static final Pattern AT = Pattern.compile("^sample at=([0-9]{1,12})$");
    private static final Pattern FAILED = Pattern.compile("^sample failed=(.*)$");
    private static final Pattern DOMAIN = Pattern.compile("^Domain: '(.*)'$");
    private static final Pattern BLOCK = Pattern.compile("^block\\.([0-9]+)\\.([a-zA-Z.]+)=(.*)$");
    private static final Pattern LIST_ROW = Pattern.compile("^([0-9]+|-)\\s+(\\S+)\\s+\\S.*$");
    private static final String[] COUNTERS = {"rd.reqs", "rd.bytes", "rd.times", "wr.reqs", "wr.bytes", "wr.times"};

    private final long atMillis;
    private final List<Domain> domains;
    private final String failure;

    private HostSample(long atMillis, List<Domain> domains, String failure) {
        this.atMillis = atMillis;
        this.domains = Collections.unmodifiableList(domains);
        this.failure = failure;
    }

    /** One running domain: its name (ZStack: the VM's uuid), its libvirt id (null: not listed), its disks. */
    public static final class Domain {
        private final String name;
        private final Long id;
        private final List<Disk> disks;

        Domain(String name, Long id, List<Disk> disks) {
            this.name = name;
            this.id = id;
            this.disks = Collections.unmodifiableList(disks);
        }

        public String name() { return name; }

        /** The libvirt id of the running QEMU; null when {@code virsh list} did not list the domain. */
        public Long id() { return id; }

        public List<Disk> disks() { return disks; }
    }

    /** One disk of a domain. */
    public static final class Disk {
        private final String name;
        private final String path;
        private final Counters counters;
        private final String incomplete;

        Disk(String name, String path, Counters counters, String incomplete) {
            this.name = name;
            this.path = path;
            this.counters = counters;
            this.incomplete = incomplete;
        }

        /** The target (vda, sdb, ...). */
        public String name() { return name; }

        /** The image or device QEMU opened; null for a disk without a local source (a network disk, an empty drive). */
        public String path() { return path; }

        /** null when incomplete. */
        public Counters counters() { return counters; }

        /** Why the counters are unusable (a counter missing or not a number); null when complete. */
        public String incomplete() { return incomplete; }
    }

    /**
     * @return the sample, or one that says why there is none ({@link #failure()}): the script's own failure line, or
     * an output without its {@code sample at=} line
     */
    public static HostSample parse(String stdout) {
        if (stdout == null || stdout.trim().isEmpty()) return failed("the host printed nothing");
        long at = -1;
        Map<String, Long> ids = new LinkedHashMap<String, Long>();
        Map<String, Map<Integer, Map<String, String>>> blocks = new LinkedHashMap<String, Map<Integer, Map<String, String>>>();
        String section = "";
        String domain = null;
        for (String raw : stdout.split("\r?\n")) {
            String line = raw.trim();
            Matcher m;
            if ((m = FAILED.matcher(line)).matches()) return failed(m.group(1).trim());
            if ((m = AT.matcher(line)).matches()) {
                at = Long.parseLong(m.group(1)) * 1000;
            } else if (line.startsWith("--- ")) {
                section = line.substring(4);
                domain = null;
            } else if (section.equals("virsh list") && (m = LIST_ROW.matcher(line)).matches()) {
                if (!m.group(1).equals("-")) ids.put(m.group(2), Long.valueOf(m.group(1)));
            } else if ((m = DOMAIN.matcher(line)).matches()) {
                domain = m.group(1);
                if (!blocks.containsKey(domain)) blocks.put(domain, new LinkedHashMap<Integer, Map<String, String>>());
            } else if (domain != null && (m = BLOCK.matcher(line)).matches()) {
                Integer index = Integer.valueOf(m.group(1));
                Map<String, String> fields = blocks.get(domain).get(index);
                if (fields == null) {
                    fields = new LinkedHashMap<String, String>();
                    blocks.get(domain).put(index, fields);
                }
                fields.put(m.group(2), m.group(3).trim());
            }
        }
        if (at < 0) return failed("the host's output has no 'sample at=' line: " + head(stdout));
        List<Domain> out = new ArrayList<Domain>();
        for (Map.Entry<String, Map<Integer, Map<String, String>>> d : blocks.entrySet()) {
            List<Disk> disks = new ArrayList<Disk>();
            List<String> seen = new ArrayList<String>();
            for (Map<String, String> f : d.getValue().values()) {
                String name = f.get("name");
                if (name == null || seen.contains(name)) continue; // a backing image of a disk already listed
                seen.add(name);
                disks.add(disk(name, f));
            }
            out.add(new Domain(d.getKey(), ids.get(d.getKey()), disks));
        }
        return new HostSample(at, out, null);
    }

    private static Disk disk(String name, Map<String, String> f) {
        long[] v = new long[COUNTERS.length];
        for (int i = 0; i < COUNTERS.length; i++) {
            String s = f.get(COUNTERS[i]);
            if (s == null) return new Disk(name, f.get("path"), null, "libvirt printed no block." + COUNTERS[i] + " for " + name);
            try {
                v[i] = Long.parseLong(s);
            } catch (NumberFormatException e) {
                return new Disk(name, f.get("path"), null, "block." + COUNTERS[i] + " of " + name + " is '" + s + "', not a number");
            }
            if (v[i] < 0) return new Disk(name, f.get("path"), null, "block." + COUNTERS[i] + " of " + name + " is negative: " + s);
        }
        return new Disk(name, f.get("path"), new Counters(v[0], v[1], v[2], v[3], v[4], v[5]), null);
    }

    private static HostSample failed(String why) {
        return new HostSample(-1, new ArrayList<Domain>(), why);
    }

    private static String head(String s) {
        String t = s.trim().replace('\n', ' ');
        return t.length() > 200 ? t.substring(0, 200) + "..." : t;
    }

    /** The host's clock at the sample, epoch ms (whole seconds); -1 when it failed. */
    public long atMillis() { return atMillis; }

    public List<Domain> domains() { return domains; }

    /** Why the host gave no sample; null when it did. */
    public String failure() { return failure; }
}
