-- The aio plugin (4.9.12): a stored decision carries a digest (SHA-256, base64) of what it says, so a VM start that
-- decides the same again compares digests: it reads three short columns per disk instead of loading every row with its
-- JSON lists (most of the plugin's extra cost on the start path, docs/performance.md §4). Rows written before this
-- have none; the first start that decides them compares their content once and fills it in, "decided since" kept.
ALTER TABLE `VolumeIoModeDecisionVO` ADD COLUMN IF NOT EXISTS `contentDigest` VARCHAR(44) NULL;
