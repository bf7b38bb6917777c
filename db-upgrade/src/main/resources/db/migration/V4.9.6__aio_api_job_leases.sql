-- plugin-aio 4.9.6: API jobs of a management node that died are failed by the others, and finished jobs are pruned
-- after a retention (ApiJobLeases, every 5 s on every node). Both look jobs up by state and lastOpDate.
-- Idempotent like 4.9.0: an interrupted upgrade re-runs to the same end state.

CREATE INDEX IF NOT EXISTS `idxAioApiJobVOStateLastOpDate` ON `AioApiJobVO` (`state`, `lastOpDate`);
