package org.zstack.sdk;

/**
 * The call did not get an API answer: the server could not be reached, the connection broke, the call timed out or
 * was interrupted, or the answer was not the JSON the API sends. Whether the server acted on the call is unknown.
 */
public class ZSClientException extends RuntimeException {

    public ZSClientException(String message, Throwable cause) {
        super(message, cause);
    }

    public ZSClientException(String message) {
        super(message);
    }
}
