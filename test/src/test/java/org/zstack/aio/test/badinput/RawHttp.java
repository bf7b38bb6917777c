package org.zstack.aio.test.badinput;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, one request per connection: sends exactly the bytes given (raw %00 and %2F, TRACE,
 * oversized headers, chunked bodies), which java.net.http would refuse or rewrite.
 */
final class RawHttp {

    static final ObjectMapper JSON = new ObjectMapper();

    record Request(String method, String target, Map<String, String> headers, byte[] body, boolean chunked) {
    }

    record Response(int status, Map<String, String> headers, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                return null;
            }
        }

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private RawHttp() {
    }

    static Response send(int port, Request r) {
        return send(null, port, r);
    }

    /**
     * The same from source address {@code from} (null: the system's choice), e.g. 127.0.0.2: the server tells clients
     * apart by that address, so a test on loopback can be several clients.
     */
    static Response send(InetAddress from, int port, Request r) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port, from, 0)) {
            s.setSoTimeout(120_000);
            ByteArrayOutputStream req = new ByteArrayOutputStream();
            StringBuilder head = new StringBuilder();
            head.append(r.method()).append(' ').append(r.target()).append(" HTTP/1.1\r\n");
            head.append("Host: 127.0.0.1:").append(port).append("\r\nConnection: close\r\n");
            r.headers().forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            if (r.body() != null) {
                if (r.chunked()) head.append("Transfer-Encoding: chunked\r\n");
                else head.append("Content-Length: ").append(r.body().length).append("\r\n");
            }
            head.append("\r\n");
            req.write(head.toString().getBytes(StandardCharsets.UTF_8));
            if (r.body() != null) {
                if (r.chunked()) {
                    for (int off = 0; off < r.body().length; off += 8192) {
                        int n = Math.min(8192, r.body().length - off);
                        req.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                        req.write(r.body(), off, n);
                        req.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                    }
                    req.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                } else {
                    req.write(r.body());
                }
            }
            OutputStream out = s.getOutputStream();
            try {
                out.write(req.toByteArray());
                out.flush();
            } catch (IOException closedEarly) {
                // the server may answer (413, 400) and close before reading everything: read what it said
            }
            return parse(s.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException(r.method() + " " + abbreviate(r.target()) + ": " + e, e);
        }
    }

    /**
     * A request whose body is {@code prefix} followed by 'p' up to {@code bodyBytes} bytes, streamed in 64 KiB writes
     * (chunked or with Content-Length) and never held in memory: for bodies of any size. Like most clients (Python's
     * http.client, a fixed-length HttpURLConnection) it reads the answer only once the whole request is sent, so a
     * server that closes the connection before reading the body, even after answering, gives it no answer at all.
     */
    static Response sendStreamed(int port, String method, String target, Map<String, String> headers, String prefix,
                                 long bodyBytes, boolean chunked) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(120_000);
            StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                                                   + "\r\nConnection: close\r\n");
            headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            head.append(chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + bodyBytes).append("\r\n\r\n");
            OutputStream out = s.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
            byte[] piece = new byte[64 * 1024];
            java.util.Arrays.fill(piece, (byte) 'p');
            byte[] first = prefix.getBytes(StandardCharsets.UTF_8);
            System.arraycopy(first, 0, piece, 0, first.length);
            for (long sent = 0; sent < bodyBytes; ) {
                int n = (int) Math.min(piece.length, bodyBytes - sent);
                if (chunked) out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(piece, 0, n);
                if (chunked) out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                if (sent == 0) java.util.Arrays.fill(piece, 0, first.length, (byte) 'p');
                sent += n;
            }
            if (chunked) out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return parse(s.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + abbreviate(target) + " with a body of " + bodyBytes + " bytes"
                                            + (chunked ? ", chunked" : "") + ": no answer: " + e, e);
        }
    }

    static String abbreviate(String s) {
        return s.length() > 120 ? s.substring(0, 120) + "...(" + s.length() + ")" : s;
    }

    private static Response parse(byte[] raw) throws IOException {
        String all = new String(raw, StandardCharsets.ISO_8859_1);
        int end = all.indexOf("\r\n\r\n");
        if (end < 0) throw new IOException("no complete answer: " + abbreviate(all));
        String[] lines = all.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) body = dechunk(body);
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] dechunk(byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream in = new java.io.ByteArrayInputStream(b);
        try {
            while (true) {
                StringBuilder size = new StringBuilder();
                int c;
                while ((c = in.read()) >= 0 && c != '\n') if (c != '\r') size.append((char) c);
                String hex = size.toString().split(";")[0].trim();
                if (hex.isEmpty()) break;
                int n = Integer.parseInt(hex, 16);
                if (n == 0) break;
                out.write(in.readNBytes(n));
                in.read();
                in.read();
            }
        } catch (IOException | NumberFormatException e) {
            // truncated: what was read is the body
        }
        return out.toByteArray();
    }
}
