package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;
import java.util.Map;

/** The impact of a proposed global config value: effective modes before and after, fallbacks grouped by check. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class GetGlobalConfigImpactResult {
    public Impact inventory;

    @JsonIgnoreProperties(ignoreUnknown = true)
    public static class Impact {
        public String category;
        public String name;
        public String currentValue;
        public String proposedValue;
        public long volumes;
        public long changed;
        public Tally current;
        public Tally proposed;
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public static class Tally {
        public Map<String, Long> byEffective;
        public long fallbacks;
        public long refused;
        public List<ReasonGroup> reasons;
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public static class ReasonGroup {
        public String mode;
        public String check;
        public long volumes;
        public String example;
    }
}
