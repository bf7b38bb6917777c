package org.zstack.aio.server.api;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The shape rules for free-text input that ends up in files, XML, URLs or other people's screens: names, paths,
 * host addresses. Each refusal is a 400 saying what to send instead.
 */
public final class Inputs {

    public static final int MAX_NAME = 255;
    public static final int MAX_PATH = 1024;
    private static final Pattern IPV4_LIKE = Pattern.compile("[0-9.]+");
    private static final Pattern IPV4 = Pattern.compile(
            "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern HOST_NAME = Pattern.compile(
            "(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]{2,45}");
    private static final Pattern NETWORK_URL = Pattern.compile("[a-z][a-z0-9+.-]{0,15}://[A-Za-z0-9._~/:@=-]{1,1000}");

    private Inputs() {
    }

    /** A resource name: 1-255 characters, not blank, no control, format (bidi override, zero-width) or lone surrogate characters. */
    public static String name(String name, String what) {
        if (name == null || name.isBlank() || name.length() > MAX_NAME) {
            throw ApiException.badRequest("field 'name' is required (1-" + MAX_NAME + " characters).", "Name the " + what + ".");
        }
        int bad = firstUnprintable(name);
        if (bad >= 0) {
            throw ApiException.badRequest("the " + what + " name holds the invisible or control character U+"
                                          + String.format("%04X", name.codePointAt(bad)) + " at position " + bad + ".",
                    "Use printable characters only (no control characters, bidi overrides or zero-width marks).");
        }
        return name;
    }

    /** An absolute, normalised path of at most 1024 characters without control characters. */
    public static String absolutePath(String path, String field) {
        if (path == null || path.isEmpty() || path.length() > MAX_PATH || firstUnprintable(path) >= 0
            || !path.startsWith("/") || !Path.of(path).normalize().toString().equals(path)) {
            throw ApiException.badRequest("field '" + field + "' must be an absolute, normalised path of at most " + MAX_PATH
                                          + " characters without control characters.",
                    "Send e.g. /var/lib/zstack/primary: no '..', '.', '//' or trailing '/'.");
        }
        return path;
    }

    /** A network storage url such as ceph://pool/images. */
    public static String networkUrl(String url, String field) {
        if (url == null || !NETWORK_URL.matcher(url).matches()) {
            throw ApiException.badRequest("field '" + field + "' must be a url like ceph://pool (letters, digits and ._~/:@=-).",
                    "Send the storage's url, e.g. ceph://pool/images.");
        }
        return url;
    }

    /** An IPv4 address, an IPv6 address, or a DNS host name; never host:port. No lookup is made. */
    public static String hostAddress(String address, String field) {
        if (address != null) {
            if (IPV4_LIKE.matcher(address).matches()) {
                if (IPV4.matcher(address).matches()) return address;
            } else if (address.indexOf(':') >= 0) {
                if (IPV6_CHARS.matcher(address).matches() && isIpv6Literal(address)) return address;
            } else if (HOST_NAME.matcher(address).matches()) {
                return address;
            }
        }
        throw ApiException.badRequest("field '" + field + "' is '" + Uuids.abbreviate(address)
                                      + "', which is not an IPv4 or IPv6 address or a host name.",
                "Send only the address the agent listens on, e.g. 192.168.0.10; the port goes in 'agentPort'.");
    }

    private static boolean isIpv6Literal(String s) {
        try {
            // only hex digits, ':' and '.' reach here, so this parses a literal and never asks DNS
            return InetAddress.getByName(s) instanceof java.net.Inet6Address;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Index of the first control, format or unpaired surrogate character, or -1. */
    public static int firstUnprintable(String s) {
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int type = Character.getType(cp);
            if (type == Character.CONTROL || type == Character.FORMAT || type == Character.SURROGATE
                || type == Character.UNASSIGNED || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR) {
                return i;
            }
            i += Character.charCount(cp);
        }
        return -1;
    }
}
