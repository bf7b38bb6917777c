package org.zstack.test.integration.aio

import org.zstack.utils.gson.JSONObjectUtil

/**
 * ZStack's REST API called as a script would (no Java SDK: it trims and checks parameters before sending), so that
 * trimming and validation happen where they really do, on the management node. Each call answers an {@link Answer}:
 * the HTTP status and, for ZStack's error shape, the error's code, description and details.
 */
class AioRawApi {
    static final String BASE = "http://127.0.0.1:8989/v1/"

    /** What ZStack answered one request. */
    static class Answer {
        int status
        /** the body's "error" (code, description, details), or null */
        Map error
        /** the body, when it is not JSON (ZStack's REST server answers a malformed call with a plain sentence) */
        String text

        boolean isSuccess() {
            return status == 200 && error == null
        }

        /** ZStack's error shape: 503 with {"error": {code, description, details}}, never an internal (or SDK) error. */
        boolean isZStackError() {
            return status == 503 && error != null && error.code && error.description != null && error.details != null &&
                    error.code != "SYS.1000" && !(error.code as String).startsWith("sdk.")
        }

        /** ZStack's REST server refusing a malformed call itself (RestServer's RestException): 4xx and its sentence. */
        boolean isRestRefusal() {
            return status >= 400 && status < 500 && error == null && text && !text.trim().startsWith("<")
        }

        String code() {
            return error != null ? error.code as String : "HTTP " + status
        }

        String details() {
            return error != null ? error.details as String : text
        }

        @Override
        String toString() {
            String d = details() ?: ""
            return "${code()}: ${d.length() > 300 ? d.substring(0, 300) + '…' : d}"
        }
    }

    /** One path segment, percent-encoded (UTF-8) as a URL needs it. */
    static String seg(String s) {
        return URLEncoder.encode(s, "UTF-8").replace("+", "%20")
    }

    static Answer get(String session, String pathAndQuery) {
        return send("GET", session, pathAndQuery, null)
    }

    static Answer put(String session, String path, Map body) {
        return send("PUT", session, path, JSONObjectUtil.toJsonString(body))
    }

    static Answer post(String session, String path, Map body) {
        return send("POST", session, path, JSONObjectUtil.toJsonString(body))
    }

    /** The request; an API job (202) is polled until it ends. */
    static Answer send(String method, String session, String path, String body) {
        def c = (HttpURLConnection) new URL(BASE + path).openConnection()
        c.requestMethod = method
        c.setRequestProperty("Authorization", "OAuth " + session)
        if (body != null) {
            c.doOutput = true
            c.setRequestProperty("Content-Type", "application/json; charset=utf-8")
            c.outputStream.withWriter("UTF-8") { it << body }
        }
        Answer a = read(c)
        if (a.status != 202) return a
        String location = a.error == null ? (JSONObjectUtil.toObject(a.text, LinkedHashMap.class).location as String) : null
        assert location != null: "${method} ${path}: 202 without a job location: ${a.text}"
        for (int i = 0; i < 3000; i++) {
            def poll = (HttpURLConnection) new URL(location).openConnection()
            poll.setRequestProperty("Authorization", "OAuth " + session)
            Answer p = read(poll)
            if (p.status != 202) return p
            sleep(i < 50 ? 5 : 50)
        }
        throw new AssertionError("${method} ${path}: the API job did not end")
    }

    private static Answer read(HttpURLConnection c) {
        Answer a = new Answer(status: c.responseCode)
        InputStream s = a.status < 400 ? c.inputStream : c.errorStream
        String text = s == null ? "" : s.getText("UTF-8")
        a.text = text
        if (text.startsWith("{")) {
            try {
                Map m = JSONObjectUtil.toObject(text, LinkedHashMap.class)
                a.error = m.error as Map
            } catch (Exception ignored) {
                // not JSON after all: kept as text
            }
        }
        return a
    }

    /** An SDK action's error as an answer: the SDK wraps a refused read (HTTP 503) as sdk.1000 around ZStack's body. */
    static Answer ofSdk(def error) {
        if (error == null) return new Answer(status: 200)
        if (error.code == "sdk.1000" && error.details?.startsWith("{")) {
            Map m = JSONObjectUtil.toObject(error.details as String, LinkedHashMap.class)
            if (m.error != null) return new Answer(status: 503, error: m.error as Map)
        }
        if (error.code == "sdk.1000") {
            def status = (error.description =~ /\[(\d+)\]/)
            return new Answer(status: status ? status[0][1] as int : 500, text: error.details)
        }
        return new Answer(status: 503, error: [code: error.code, description: error.description, details: error.details])
    }
}
