-- The aio plugin (4.9.3): agent enrollment. One row per host: the SHA-256 of the agent's certificate, which the
-- server pins, and the agent's secret, which the server presents on every call, encrypted with a key that lives
-- in the server's data dir (never in the database). Hosts from before this version have no row and must be
-- reconnected with the agent's enrollment token. Idempotent like 4.9.0.

CREATE TABLE IF NOT EXISTS `HostAgentCredentialVO` (
  `hostUuid` VARCHAR(32) NOT NULL,
  `certSha256` VARCHAR(64) NOT NULL,
  `secret` VARCHAR(255) NOT NULL,
  `enrollDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`hostUuid`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
