package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** A host's stored io benchmarks. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QueryHostIoBenchmarkResult {
    public List<HostIoBenchmarkInventory> inventories;
}
