package org.zstack.sdk;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import java.util.List;

/** API errors, transport failures and parameters refused before anything is sent. */
class ClientFailureTest {

    private FakeServer server;
    private ZSClient client;

    @BeforeEach
    void start() throws Exception {
        server = new FakeServer();
        client = new ZSClient(server.baseUrl()).withSession("s1");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static UpdateResourceConfigAction update(String value) {
        UpdateResourceConfigAction a = new UpdateResourceConfigAction();
        a.category = "kvm";
        a.name = "vm.ioMode";
        a.resourceUuid = "0f0e0d0c0b0a49988776655443322110";
        a.value = value;
        return a;
    }

    @Test
    void anErrorBodyBecomesApiErrorExceptionWithItsFields() {
        server.answer(400, "{\"error\":{\"code\":\"AIO.1002\",\"description\":\"'IO_URING' is not a valid value.\","
                           + "\"details\":\"Use one of threads, native, io_uring, auto.\"}}");
        ApiErrorException e = catchThrowableOfType(() -> update("IO_URING").call(client), ApiErrorException.class);
        assertThat(e.getHttpStatus()).isEqualTo(400);
        assertThat(e.getCode()).isEqualTo("AIO.1002");
        assertThat(e.getDescription()).isEqualTo("'IO_URING' is not a valid value.");
        assertThat(e.getDetails()).isEqualTo("Use one of threads, native, io_uring, auto.");
        assertThat(e).hasMessageContaining("400").hasMessageContaining("AIO.1002").hasMessageContaining("IO_URING");
    }

    @Test
    void everyErrorStatusIsSurfaced() {
        for (int status : new int[]{401, 403, 404, 409, 503}) {
            server.answer(status, "{\"error\":{\"code\":\"AIO." + status + "\",\"description\":\"d\",\"details\":null}}");
            ApiErrorException e = catchThrowableOfType(() -> new QueryVolumeAction().call(client), ApiErrorException.class);
            assertThat(e.getHttpStatus()).isEqualTo(status);
            assertThat(e.getCode()).isEqualTo("AIO." + status);
            assertThat(e.getDetails()).isNull();
        }
    }

    @Test
    void anErrorWithoutTheContractBodyStillCarriesTheStatus() {
        server.answer(502, "text/html", "<html>Bad Gateway</html>", 0);
        ApiErrorException e = catchThrowableOfType(() -> new QueryHostAction().call(client), ApiErrorException.class);
        assertThat(e.getHttpStatus()).isEqualTo(502);
        assertThat(e.getCode()).isEqualTo("HTTP.502");
        assertThat(e.getDetails()).contains("Bad Gateway");
    }

    @Test
    void aSuccessThatIsNotJsonIsAClientException() {
        server.answer(200, "text/plain", "hello", 0);
        assertThatThrownBy(() -> new QueryHostAction().call(client))
                .isInstanceOf(ZSClientException.class).hasMessageContaining("hello");
    }

    @Test
    void connectionRefusedIsAClientException() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ZSClient nowhere = new ZSClient("http://127.0.0.1:" + port).withSession("s1");
        assertThatThrownBy(() -> new QueryHostAction().call(nowhere))
                .isInstanceOf(ZSClientException.class)
                .hasMessageContaining("127.0.0.1:" + port);
    }

    @Test
    void aSlowServerTimesOut() {
        server.answer(200, "application/json", "{}", 2_000);
        ZSClient impatient = new ZSClient(ZSConfig.builder().baseUrl(server.baseUrl())
                .readTimeout(Duration.ofMillis(200)).build()).withSession("s1");
        assertThatThrownBy(() -> new QueryHostAction().call(impatient))
                .isInstanceOf(ZSClientException.class).hasMessageContaining("timed out");
    }

    @Test
    void aMissingRequiredParameterIsRefusedBeforeSending() {
        assertThatThrownBy(() -> update(null).call(client))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'value'");
        UpdateResourceConfigAction noUuid = update("native");
        noUuid.resourceUuid = null;
        assertThatThrownBy(() -> noUuid.call(client))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'resourceUuid'");
        CreateVmInstanceAction vm = new CreateVmInstanceAction();
        vm.name = "vm";
        vm.hostUuid = "h";
        vm.memorySize = 1L << 30;
        vm.volumeUuids = List.of("v");
        assertThatThrownBy(() -> vm.call(client))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'cpuNum'");
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void anEmptyPathValueIsRefusedBeforeSending() {
        GetVolumeAction a = new GetVolumeAction();
        a.uuid = "";
        assertThatThrownBy(() -> a.call(client))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'uuid'");
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void aCallThatNeedsASessionIsRefusedWithoutOne() {
        ZSClient anonymous = new ZSClient(server.baseUrl());
        assertThatThrownBy(() -> new QueryVolumeAction().call(anonymous))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'sessionId'");
        assertThat(server.requests()).isEmpty();
        QueryVolumeAction withOwn = new QueryVolumeAction();
        withOwn.sessionId = "own";
        server.answer(200, "{\"inventories\":[]}");
        assertThat(withOwn.call(anonymous).inventories).isEmpty();
        assertThat(server.only().authorization()).isEqualTo("OAuth own");
    }

    @Test
    void withSessionLeavesTheOriginalClientUnchanged() {
        ZSClient base = new ZSClient(server.baseUrl());
        ZSClient s = base.withSession("x");
        assertThat(base.getSessionId()).isNull();
        assertThat(s.getSessionId()).isEqualTo("x");
        assertThat(s.getConfig()).isSameAs(base.getConfig());
    }

    @Test
    void configBuildsTheBaseUrl() {
        assertThat(ZSConfig.builder().host("10.0.0.5").port(8081).build().getBaseUrl())
                .hasToString("http://10.0.0.5:8081");
        assertThat(ZSConfig.builder().host("h").contextPath("aio/").build().getBaseUrl()).hasToString("http://h:8080/aio");
        assertThat(ZSConfig.of("http://127.0.0.1:8080/").getBaseUrl()).hasToString("http://127.0.0.1:8080");
        assertThatThrownBy(() -> ZSConfig.of("127.0.0.1:8080")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ZSConfig.of("ftp://h/")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ZSConfig.builder().port(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ZSConfig.builder().readTimeout(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aContextPathPrefixesEveryCall() {
        ZSClient prefixed = new ZSClient(server.baseUrl() + "/aio").withSession("s1");
        new QueryHostAction().call(prefixed);
        assertThat(server.only().pathAndQuery()).isEqualTo("/aio/v1/hosts");
    }
}
