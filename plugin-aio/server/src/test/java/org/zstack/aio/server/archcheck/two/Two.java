package org.zstack.aio.server.archcheck.two;

import org.zstack.aio.server.archcheck.one.One;

/** The other half of the deliberate cycle. */
public class Two {
    One one;
}
