package org.zstack.aio.server.inventory;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.zstack.aio.agent.api.GuestBoot;

import java.time.LocalDateTime;

@Entity
@Table(name = "VmInstanceVO")
public class VmInstanceVO {

    /** Contract §6: Starting/Stopping/Migrating are held by a node's lease; Unknown waits for the tracker. */
    public enum State { Stopped, Starting, Running, Stopping, Migrating, Unknown }

    @Id
    private String uuid;
    private String name;
    private String hostUuid;
    private String state;
    private long memorySize;
    private int cpuNum;
    private String accountUuid;
    private LocalDateTime createDate;
    private LocalDateTime lastOpDate;
    private long stateVersion;
    private LocalDateTime opLeaseUntil;
    /** The operation that last claimed the VM (random, written with its claim), until the tracker settles it; or null. */
    private String opToken;
    private String stateReason;
    /** A direct kernel boot (all null: boot from the first disk) and the accelerator asked for (null: host default). */
    private String bootKernel;
    private String bootInitrd;
    private String bootCmdline;
    private String bootConsoleLog;
    private String accel;
    /** The destination host while Migrating (the tracker asks both hosts after a crash); null otherwise. */
    private String migrateHostUuid;

    protected VmInstanceVO() {
    }

    public VmInstanceVO(String uuid, String name, String hostUuid, long memorySize, int cpuNum, String accountUuid) {
        this.uuid = uuid;
        this.name = name;
        this.hostUuid = hostUuid;
        this.memorySize = memorySize;
        this.cpuNum = cpuNum;
        this.accountUuid = accountUuid;
        this.state = State.Stopped.name();
        this.createDate = this.lastOpDate = LocalDateTime.now();
    }

    public String getUuid() { return uuid; }
    public LocalDateTime getCreateDate() { return createDate; }
    public LocalDateTime getLastOpDate() { return lastOpDate; }
    public String getName() { return name; }
    public String getHostUuid() { return hostUuid; }
    public State getState() { return State.valueOf(state); }
    public long getMemorySize() { return memorySize; }
    public int getCpuNum() { return cpuNum; }
    public String getAccountUuid() { return accountUuid; }
    public long getStateVersion() { return stateVersion; }
    public LocalDateTime getOpLeaseUntil() { return opLeaseUntil; }
    public String getStateReason() { return stateReason; }
    public String getMigrateHostUuid() { return migrateHostUuid; }

    public String getAccel() { return accel; }

    /** The direct kernel boot, or null when the VM boots from its first disk. */
    public GuestBoot getBoot() {
        return bootKernel == null ? null : new GuestBoot(bootKernel, bootInitrd, bootCmdline, bootConsoleLog);
    }

    public void setBoot(GuestBoot boot, String accel) {
        this.bootKernel = boot == null ? null : boot.kernel();
        this.bootInitrd = boot == null ? null : boot.initrd();
        this.bootCmdline = boot == null ? null : boot.cmdline();
        this.bootConsoleLog = boot == null ? null : boot.consoleLog();
        this.accel = accel;
    }

    public void setState(State state) {
        this.state = state.name();
        this.lastOpDate = LocalDateTime.now();
    }
}
