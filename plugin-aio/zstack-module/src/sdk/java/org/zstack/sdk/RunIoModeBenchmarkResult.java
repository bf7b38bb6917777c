package org.zstack.sdk;

/** What RunIoModeBenchmarkAction returns when the benchmark has ended. */
public class RunIoModeBenchmarkResult {
    public IoModeBenchmarkInventory inventory;
    /** whether it replaced the stored benchmark of its host, storage and image kind */
    public boolean stored;
    /** what the final call found of its scratch files */
    public java.lang.String scratch;

    public IoModeBenchmarkInventory getInventory() { return inventory; }
    public void setInventory(IoModeBenchmarkInventory v) { inventory = v; }
    public boolean getStored() { return stored; }
    public void setStored(boolean v) { stored = v; }
    public java.lang.String getScratch() { return scratch; }
    public void setScratch(java.lang.String v) { scratch = v; }
}
