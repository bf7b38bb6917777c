-- The aio plugin (4.9.15): a host's named probes (qemu.liburing, aio.free, kernel.release, io_uring.setup,
-- process.seccomp, ...: docs/decision.md, "Host probes") are kept with its other facts, so the known-bad rules of
-- conf/aio/io-mode-rules.yaml that test them apply on this server as inside ZStack. Before, the agent reported them
-- and the server dropped them. Existing rows get NULL: no probe, until the host's next connect.
ALTER TABLE `HostIoCapabilitiesVO` ADD COLUMN IF NOT EXISTS `probes` TEXT NULL;
