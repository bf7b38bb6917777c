package org.zstack.aio.server.archcheck.one;

import org.zstack.aio.server.archcheck.two.Two;

/** Half of a deliberate package cycle: ServerArchitectureTest shows its rule reports one. */
public class One {
    Two two;
}
