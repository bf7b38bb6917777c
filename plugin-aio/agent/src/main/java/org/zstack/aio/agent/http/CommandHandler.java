package org.zstack.aio.agent.http;

/** One endpoint: a JSON command of type C in, any Jackson-serializable answer out. */
@FunctionalInterface
public interface CommandHandler<C> {
    Object handle(C command);
}
