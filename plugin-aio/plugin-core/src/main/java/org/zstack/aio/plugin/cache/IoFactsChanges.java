package org.zstack.aio.plugin.cache;

/**
 * Tells every management node, this one included, that some facts changed (port): ZStack fires a canonical event,
 * which reaches every node; each node's listener hands the change to its {@link IoFactsCache#apply}. Whoever writes a
 * probe, a benchmark or a sample publishes after its write is committed, so a node that reloads reads the new rows.
 */
public interface IoFactsChanges {

    void publish(IoFactsChange change);
}
