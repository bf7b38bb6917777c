package org.zstack.aio.zstack;

import org.springframework.http.HttpMethod;
import org.zstack.header.query.APIQueryMessage;
import org.zstack.header.query.AutoQuery;
import org.zstack.header.rest.RestRequest;

import java.util.Arrays;
import java.util.List;

/** ZStack's query over the stored io-mode benchmarks (AioStorageBenchmarkVO), answered by ZStack's query service. Admin only. */
@AutoQuery(replyClass = APIQueryIoModeBenchmarkReply.class, inventoryClass = IoModeBenchmarkInventory.class)
@RestRequest(path = "/io-mode-benchmarks", method = HttpMethod.GET, responseClass = APIQueryIoModeBenchmarkReply.class)
public class APIQueryIoModeBenchmarkMsg extends APIQueryMessage {
    public static List<String> __example__() {
        return Arrays.asList("hostUuid=8a5a4e8f9d0c3b7a1f2e4d6c5e1d6a2d", "outcome=COMPLETE");
    }
}
