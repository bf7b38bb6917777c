package org.zstack.aio.test.support;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text exposition format 0.0.4: it throws on anything the format does not allow
 * (bad names, bad label syntax or escapes, unparsable values, a sample before its family's TYPE, a family split in
 * two, duplicate TYPE/HELP or samples, a histogram without +Inf, with buckets out of order or not cumulative, or
 * whose +Inf bucket differs from its _count), so that what Prometheus would reject fails the test.
 */
public final class PrometheusText {

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Pattern FLOAT = Pattern.compile("[+-]?(Inf|NaN|(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?)");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    public record Sample(String name, Map<String, String> labels, double value) {
    }

    public record Family(String name, String type, String help, List<Sample> samples) {
        /** The value of the one sample with this name whose labels include all of {@code labels}; NaN when none. */
        public double value(String sampleName, Map<String, String> labels) {
            List<Sample> m = samples.stream().filter(s -> s.name.equals(sampleName)
                    && s.labels.entrySet().containsAll(labels.entrySet())).toList();
            if (m.size() > 1) throw new AssertionError(m.size() + " samples of " + sampleName + " match " + labels);
            return m.isEmpty() ? Double.NaN : m.get(0).value;
        }
    }

    private PrometheusText() {
    }

    public static Map<String, Family> parse(String text) {
        if (!text.isEmpty() && !text.endsWith("\n")) throw new IllegalArgumentException("the exposition must end with a newline");
        Map<String, Family> families = new LinkedHashMap<>();
        Set<String> closed = new HashSet<>();
        Set<String> seenSamples = new HashSet<>();
        String current = null;
        int lineNo = 0;
        for (String line : text.split("\n", -1)) {
            lineNo++;
            if (line.isEmpty()) continue;
            String where = "line " + lineNo + " '" + line + "': ";
            if (line.startsWith("#")) {
                String[] p = line.split(" ", 4);
                if (p.length >= 3 && (p[1].equals("TYPE") || p[1].equals("HELP"))) {
                    String name = p[2];
                    require(NAME.matcher(name).matches(), where + "bad metric name");
                    if (!name.equals(current)) {
                        require(!closed.contains(name), where + "family " + name + " appears twice, not contiguous");
                        if (current != null) closed.add(current);
                        current = name;
                    }
                    Family f = families.get(name);
                    if (p[1].equals("TYPE")) {
                        require(p.length == 4 && TYPES.contains(p[3]), where + "bad type");
                        require(f == null || f.type == null, where + "second TYPE for " + name);
                        require(f == null || f.samples.isEmpty(), where + "TYPE after samples of " + name);
                        families.put(name, new Family(name, p[3], f == null ? null : f.help, new ArrayList<>()));
                    } else {
                        require(f == null || f.help == null, where + "second HELP for " + name);
                        checkHelpEscapes(p.length == 4 ? p[3] : "", where);
                        families.put(name, new Family(name, f == null ? null : f.type, p.length == 4 ? p[3] : "",
                                f == null ? new ArrayList<>() : f.samples));
                    }
                }
                continue;
            }
            Sample s = sample(line, where);
            require(current != null && families.get(current).type != null && belongs(s.name, families.get(current)),
                    where + "sample outside its family's TYPE block (current family " + current + ")");
            require(seenSamples.add(s.name + new TreeMap<>(s.labels)), where + "duplicate sample");
            families.get(current).samples.add(s);
        }
        families.values().forEach(PrometheusText::checkFamily);
        return families;
    }

    private static boolean belongs(String sample, Family f) {
        return switch (f.type) {
            case "histogram" -> sample.equals(f.name + "_bucket") || sample.equals(f.name + "_count")
                                || sample.equals(f.name + "_sum") || sample.equals(f.name + "_created");
            case "summary" -> sample.equals(f.name) || sample.equals(f.name + "_count") || sample.equals(f.name + "_sum")
                              || sample.equals(f.name + "_created");
            case "counter" -> sample.equals(f.name) || sample.equals(f.name + "_total") || sample.equals(f.name + "_created");
            default -> sample.equals(f.name);
        };
    }

    private static Sample sample(String line, String where) {
        Matcher n = NAME.matcher(line);
        require(n.lookingAt(), where + "bad metric name");
        String name = n.group();
        int i = n.end();
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i++;
            while (line.charAt(i) != '}') {
                Matcher l = LABEL.matcher(line).region(i, line.length());
                require(l.lookingAt(), where + "bad label name at " + i);
                String label = l.group();
                i = l.end();
                require(line.startsWith("=\"", i), where + "label " + label + " without =\"");
                i += 2;
                StringBuilder v = new StringBuilder();
                while (true) {
                    require(i < line.length(), where + "unterminated label value");
                    char c = line.charAt(i++);
                    if (c == '"') break;
                    if (c == '\\') {
                        char e = line.charAt(i++);
                        require(e == '\\' || e == '"' || e == 'n', where + "bad escape \\" + e);
                        v.append(e == 'n' ? '\n' : e);
                    } else {
                        v.append(c);
                    }
                }
                require(labels.put(label, v.toString()) == null, where + "label " + label + " twice");
                if (line.charAt(i) == ',') i++;
                else require(line.charAt(i) == '}', where + "expected , or }");
            }
            i++;
        }
        require(i < line.length() && line.charAt(i) == ' ', where + "no space before the value");
        String[] rest = line.substring(i + 1).split(" ");
        require(rest.length == 1 || rest.length == 2, where + "expected value [timestamp]");
        require(FLOAT.matcher(rest[0]).matches(), where + "bad value " + rest[0]);
        if (rest.length == 2) require(rest[1].matches("-?\\d+"), where + "bad timestamp");
        String v = rest[0].replace("Inf", "Infinity");
        return new Sample(name, labels, Double.parseDouble(v));
    }

    private static void checkFamily(Family f) {
        require(f.type != null, "family " + f.name + " has HELP but no TYPE");
        if (f.type.equals("counter")) {
            for (Sample s : f.samples) require(s.value >= 0 || Double.isNaN(s.value), "negative counter " + s);
        }
        if (!f.type.equals("histogram")) return;
        Map<Map<String, String>, List<Sample>> buckets = new LinkedHashMap<>();
        Map<Map<String, String>, Double> counts = new LinkedHashMap<>();
        for (Sample s : f.samples) {
            Map<String, String> key = new TreeMap<>(s.labels);
            if (s.name.endsWith("_bucket")) {
                require(key.containsKey("le"), "bucket without le: " + s);
                key.remove("le");
                buckets.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
            } else if (s.name.endsWith("_count")) {
                counts.put(key, s.value);
            }
        }
        require(buckets.keySet().equals(counts.keySet()), "histogram " + f.name + ": bucket and _count series differ");
        buckets.forEach((key, bs) -> {
            double prevLe = Double.NEGATIVE_INFINITY;
            double prev = 0;
            for (Sample b : bs) {
                String le = b.labels.get("le");
                require(FLOAT.matcher(le).matches(), "bad le " + le);
                double bound = Double.parseDouble(le.replace("Inf", "Infinity"));
                require(bound > prevLe, "histogram " + f.name + key + ": le out of order at " + le);
                require(b.value >= prev, "histogram " + f.name + key + ": bucket " + le + " not cumulative");
                prevLe = bound;
                prev = b.value;
            }
            require(prevLe == Double.POSITIVE_INFINITY, "histogram " + f.name + key + " has no +Inf bucket");
            require(Objects.equals(prev, counts.get(key)), "histogram " + f.name + key + ": +Inf bucket != _count");
        });
    }

    private static void checkHelpEscapes(String help, String where) {
        for (int i = 0; i < help.length(); i++) {
            if (help.charAt(i) == '\\') {
                require(i + 1 < help.length() && (help.charAt(i + 1) == '\\' || help.charAt(i + 1) == 'n'), where + "bad escape in HELP");
                i++;
            }
        }
    }

    private static void require(boolean ok, String message) {
        if (!ok) throw new IllegalArgumentException(message);
    }
}
