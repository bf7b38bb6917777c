-- The aio plugin (4.9.10): a VM may boot a kernel directly (QEMU -kernel/-initrd/-append) with its serial console in
-- a file, and may ask for an emulated CPU (accel tcg, libvirt domain type qemu). NULL everywhere: boot from the first
-- disk with the host's default accelerator, as before. Idempotent like 4.9.0.

ALTER TABLE `VmInstanceVO` ADD COLUMN IF NOT EXISTS `bootKernel` VARCHAR(1024) NULL;
ALTER TABLE `VmInstanceVO` ADD COLUMN IF NOT EXISTS `bootInitrd` VARCHAR(1024) NULL;
ALTER TABLE `VmInstanceVO` ADD COLUMN IF NOT EXISTS `bootCmdline` VARCHAR(1024) NULL;
ALTER TABLE `VmInstanceVO` ADD COLUMN IF NOT EXISTS `bootConsoleLog` VARCHAR(1024) NULL;
ALTER TABLE `VmInstanceVO` ADD COLUMN IF NOT EXISTS `accel` VARCHAR(16) NULL;
