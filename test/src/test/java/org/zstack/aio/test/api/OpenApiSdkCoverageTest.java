package org.zstack.aio.test.api;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.TestDatabase;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The served OpenAPI description lists every /v1 operation; each must have its SDK action class. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiSdkCoverageTest {

    TestDatabase db;
    RunningServer server;

    @BeforeAll
    void boot() throws Exception {
        db = TestDatabase.h2();
        server = RunningServer.start(db);
    }

    @AfterAll
    void shutdown() throws Exception {
        server.close();
        db.close();
    }

    @Test
    void everyApiOperationHasAnSdkAction() {
        Http.Response r = new Http(server.baseUrl()).get("/v3/api-docs", null);
        assertThat(r.status()).isEqualTo(200);
        List<String> operations = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        r.body().path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            JsonNode id = op.getValue().path("operationId");
            String name = id.asText(op.getKey().toUpperCase() + " " + path.getKey());
            operations.add(name);
            try {
                Class.forName("org.zstack.sdk." + name + "Action");
            } catch (ClassNotFoundException e) {
                missing.add(name + " (" + op.getKey().toUpperCase() + " " + path.getKey() + ")");
            }
        }));
        assertThat(operations).hasSizeGreaterThanOrEqualTo(25).contains("UpdateResourceConfig", "GetVolumeIoMode");
        assertThat(missing).as("API operations without an SDK action").isEmpty();
    }
}
