package org.zstack.aio.server.job;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.LocalDateTime;

/**
 * One write call a client sent with {@code X-Job-UUID}: stored in the database so that any management node can
 * answer its poll. {@code result} is the call's answer body as the synchronous call would have given it.
 */
@Entity
@Table(name = "AioApiJobVO")
public class ApiJobVO {

    public enum State { Running, Succeeded, Failed }

    @Id
    private String uuid;
    /** who sent it; null when the call carried no valid session (then it fails with 401 and only holds that error) */
    private String accountUuid;
    private String apiName;
    private String state;
    private Integer httpStatus;
    private String result;
    private LocalDateTime createDate;
    private LocalDateTime lastOpDate;

    protected ApiJobVO() {
    }

    ApiJobVO(String uuid, String accountUuid, String apiName) {
        this.uuid = uuid;
        this.accountUuid = accountUuid;
        this.apiName = apiName;
        this.state = State.Running.name();
        this.createDate = this.lastOpDate = LocalDateTime.now();
    }

    public String getUuid() { return uuid; }
    public String getAccountUuid() { return accountUuid; }
    public String getApiName() { return apiName; }
    public State getState() { return State.valueOf(state); }
    public Integer getHttpStatus() { return httpStatus; }
    public String getResult() { return result; }

    void finish(int httpStatus, String result) {
        this.httpStatus = httpStatus;
        this.result = result;
        this.state = (httpStatus >= 200 && httpStatus < 300 ? State.Succeeded : State.Failed).name();
        this.lastOpDate = LocalDateTime.now();
    }
}
