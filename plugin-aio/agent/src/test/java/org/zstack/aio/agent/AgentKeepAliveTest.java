package org.zstack.aio.agent;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.trust.AgentAuth;
import org.zstack.aio.agent.api.trust.EnrollmentToken;
import org.zstack.aio.agent.api.trust.PinnedTls;
import org.zstack.aio.agent.support.TestAgents;

import javax.net.ssl.SSLSocket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent answers a request only once it has read the request's body, a refusal (404) too, so that the next
 * command on the same kept-alive connection is answered. The JDK's HttpsServer reads the rest of a body left unread
 * after the answer, and that read can take the client's next request off the socket into its TLS buffer, where it
 * is never served: the server then waits out its whole agent timeout (a VM start answered 503 after 60 s). The
 * client here is raw TLS, so it can hold its body back and see whether an answer comes before it.
 */
class AgentKeepAliveTest {

    private static KvmAgent agent;
    private static EnrollmentToken token;

    @BeforeAll
    static void start() {
        agent = KvmAgent.start(TestAgents.settings().withLibvirtUri("test:///default"));
        token = EnrollmentToken.parse(agent.enrollmentToken());
    }

    @AfterAll
    static void stop() {
        agent.close();
    }

    @Test
    void anUnknownPathIsAnsweredOnlyOnceItsBodyWasReadAndTheConnectionThenServesTheNextCommand() throws Exception {
        try (Connection c = new Connection()) {
            String body = "{\"vmUuid\":\"vm-1\"}";
            c.out.write(head("/vm/no-such-command", body.length()));
            c.out.flush();
            String early = c.answerWithin(300);
            if (early != null) {
                // what follows such an early answer: the rest of the body and the next command arrive together
                c.held = new ByteArrayOutputStream();
                c.out.write(body.getBytes(StandardCharsets.US_ASCII));
                c.out.write(ping());
                c.out.flush();
                c.release();
                String next = c.answerWithin(5_000);
                throw new AssertionError("the agent answered before the body was sent (" + early + "); the next command "
                        + "on that connection then got " + (next == null ? "no answer within 5 s" : next));
            }
            c.out.write(body.getBytes(StandardCharsets.US_ASCII));
            c.out.flush();
            assertThat(c.answerWithin(10_000)).startsWith("HTTP/1.1 404 ");
            c.out.write(ping());
            c.out.flush();
            assertThat(c.answerWithin(10_000)).as("the next command on the same connection")
                    .startsWith("HTTP/1.1 200 ").contains("\"status\":\"UP\"");
        }
    }

    @Test
    void aGetIsRefusedAtOnceAndTheConnectionServesTheNextCommand() throws Exception {
        try (Connection c = new Connection()) {
            c.out.write(("GET " + AgentPaths.VM_START + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AgentAuth.HEADER + ": "
                    + AgentAuth.header(token.secret()) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            c.out.flush();
            assertThat(c.answerWithin(10_000)).startsWith("HTTP/1.1 405 ");
            c.out.write(ping());
            c.out.flush();
            assertThat(c.answerWithin(10_000)).startsWith("HTTP/1.1 200 ");
        }
    }

    private static byte[] ping() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(head(AgentPaths.PING, 2));
        b.writeBytes("{}".getBytes(StandardCharsets.US_ASCII));
        return b.toByteArray();
    }

    private static byte[] head(String path, int contentLength) {
        return ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + AgentAuth.HEADER
                + ": " + AgentAuth.header(token.secret()) + "\r\nContent-Length: " + contentLength + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Raw TLS to the agent, pinned to its certificate. While {@code held} is set, the TLS records written go there
     * instead of the socket, and {@link #release} sends them in one TCP write (as they arrive from a client whose
     * writes queued up).
     */
    private static final class Connection implements AutoCloseable {
        final SSLSocket tls;
        final OutputStream out;
        final InputStream in;
        OutputStream wire;
        volatile ByteArrayOutputStream held;

        Connection() throws IOException {
            Socket raw = new Socket("127.0.0.1", agent.port()) {
                @Override
                public synchronized OutputStream getOutputStream() throws IOException {
                    if (wire == null) wire = super.getOutputStream();
                    return new OutputStream() {
                        @Override
                        public void write(int b) throws IOException {
                            write(new byte[]{(byte) b}, 0, 1);
                        }

                        @Override
                        public void write(byte[] b, int off, int len) throws IOException {
                            if (held != null) held.write(b, off, len);
                            else wire.write(b, off, len);
                        }
                    };
                }
            };
            raw.setTcpNoDelay(true);
            tls = (SSLSocket) PinnedTls.clientContext(token.certSha256()).getSocketFactory()
                    .createSocket(raw, "127.0.0.1", agent.port(), true);
            tls.startHandshake();
            out = tls.getOutputStream();
            in = tls.getInputStream();
        }

        void release() throws IOException {
            byte[] b = held.toByteArray();
            held = null;
            wire.write(b);
        }

        /** One HTTP/1.1 answer with a Content-Length, as status line + body; null when none came in time. */
        String answerWithin(int millis) throws IOException {
            tls.setSoTimeout(millis);
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            try {
                while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                    int c = in.read();
                    if (c < 0) throw new IOException("connection closed after: " + head);
                    head.write(c);
                }
            } catch (SocketTimeoutException e) {
                if (head.size() == 0) return null;
                throw e;
            }
            String[] lines = head.toString(StandardCharsets.US_ASCII).split("\r\n");
            int length = 0;
            for (String l : lines) {
                if (l.regionMatches(true, 0, "Content-Length:", 0, 15)) length = Integer.parseInt(l.substring(15).strip());
            }
            return lines[0] + " " + new String(in.readNBytes(length), StandardCharsets.UTF_8);
        }

        @Override
        public void close() throws IOException {
            tls.close();
        }
    }
}
