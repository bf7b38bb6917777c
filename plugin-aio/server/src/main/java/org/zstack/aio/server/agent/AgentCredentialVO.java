package org.zstack.aio.server.agent;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.LocalDateTime;

/** What the server needs to call one host's agent: the pinned certificate hash and the sealed secret. */
@Entity
@Table(name = "HostAgentCredentialVO")
public class AgentCredentialVO {
    @Id
    private String hostUuid;
    private String certSha256;
    /** {@link SecretBox}-sealed: readable only with the key in the server's data dir. */
    private String secret;
    private LocalDateTime enrollDate;

    protected AgentCredentialVO() {
    }

    public AgentCredentialVO(String hostUuid, String certSha256, String sealedSecret) {
        this.hostUuid = hostUuid;
        this.certSha256 = certSha256;
        this.secret = sealedSecret;
        this.enrollDate = LocalDateTime.now();
    }

    public String getHostUuid() { return hostUuid; }
    public String getCertSha256() { return certSha256; }
    public String getSealedSecret() { return secret; }
}
