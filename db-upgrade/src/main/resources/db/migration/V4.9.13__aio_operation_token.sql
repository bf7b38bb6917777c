-- The aio plugin (4.9.13): an operation on a VM (start, stop, migration) writes a random token into the VM's row with
-- its claim, and each later step of that operation changes the row only while the token is still there; the token stays
-- after the operation ends, until the tracker settles the VM or another operation claims it. A claim or last step whose
-- commit nobody acknowledged (the database node died after committing), run again, is then recognised as done by this
-- very operation instead of answering the user 409 "VM ... is Starting" or writing a second audit row; and a step of an
-- operation whose lease lapsed changes nothing. Existing rows get NULL: no operation.
ALTER TABLE `VmInstanceVO` ADD COLUMN IF NOT EXISTS `opToken` CHAR(32) NULL;
