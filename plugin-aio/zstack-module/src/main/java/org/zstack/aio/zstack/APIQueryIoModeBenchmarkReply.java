package org.zstack.aio.zstack;

import org.zstack.header.query.APIQueryReply;
import org.zstack.header.rest.RestResponse;

import java.util.Collections;
import java.util.List;

@RestResponse(allTo = "inventories")
public class APIQueryIoModeBenchmarkReply extends APIQueryReply {
    private List<IoModeBenchmarkInventory> inventories;

    public List<IoModeBenchmarkInventory> getInventories() {
        return inventories;
    }

    public void setInventories(List<IoModeBenchmarkInventory> inventories) {
        this.inventories = inventories;
    }

    public static APIQueryIoModeBenchmarkReply __example__() {
        APIQueryIoModeBenchmarkReply reply = new APIQueryIoModeBenchmarkReply();
        reply.setInventories(Collections.<IoModeBenchmarkInventory>emptyList());
        return reply;
    }
}
