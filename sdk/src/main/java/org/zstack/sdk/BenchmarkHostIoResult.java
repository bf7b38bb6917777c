package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** The benchmarks just taken, one per primary storage. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class BenchmarkHostIoResult {
    public List<HostIoBenchmarkInventory> inventories;
}
