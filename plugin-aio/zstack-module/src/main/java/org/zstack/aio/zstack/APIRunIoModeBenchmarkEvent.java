package org.zstack.aio.zstack;

import org.zstack.header.message.APIEvent;
import org.zstack.header.rest.RestResponse;

/**
 * How a benchmark ended: the benchmark (stored when it measured something: complete, budget spent, or cancelled after
 * a run), and what the final call found of its scratch files (removed, or why not).
 */
@RestResponse(fieldsTo = {"all"})
public class APIRunIoModeBenchmarkEvent extends APIEvent {
    private IoModeBenchmarkInventory inventory;
    private boolean stored;
    private String scratch;

    public APIRunIoModeBenchmarkEvent() {
    }

    public APIRunIoModeBenchmarkEvent(String apiId) {
        super(apiId);
    }

    public IoModeBenchmarkInventory getInventory() {
        return inventory;
    }

    public void setInventory(IoModeBenchmarkInventory inventory) {
        this.inventory = inventory;
    }

    public boolean isStored() {
        return stored;
    }

    public void setStored(boolean stored) {
        this.stored = stored;
    }

    public String getScratch() {
        return scratch;
    }

    public void setScratch(String scratch) {
        this.scratch = scratch;
    }

    public static APIRunIoModeBenchmarkEvent __example__() {
        return new APIRunIoModeBenchmarkEvent();
    }
}
