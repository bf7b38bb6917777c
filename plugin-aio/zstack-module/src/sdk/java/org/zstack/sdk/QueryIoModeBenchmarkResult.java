package org.zstack.sdk;

/** What QueryIoModeBenchmarkAction returns: the matching benchmarks and the total. */
public class QueryIoModeBenchmarkResult {
    public java.util.List<IoModeBenchmarkInventory> inventories;
    public java.lang.Long total;

    public java.util.List<IoModeBenchmarkInventory> getInventories() { return inventories; }
    public void setInventories(java.util.List<IoModeBenchmarkInventory> v) { inventories = v; }
    public java.lang.Long getTotal() { return total; }
    public void setTotal(java.lang.Long v) { total = v; }
}
