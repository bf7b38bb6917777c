package org.zstack.aio.server.query;

import java.util.List;

/** The rows one query selected, and how many match in all (null when the caller did not ask). */
public record Page<E>(List<E> rows, Long total) {
}
