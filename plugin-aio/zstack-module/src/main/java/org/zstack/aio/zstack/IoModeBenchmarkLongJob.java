package org.zstack.aio.zstack;

import org.zstack.core.Platform;
import org.zstack.core.db.SQL;
import org.zstack.header.core.ReturnValueCompletion;
import org.zstack.header.errorcode.ErrorCode;
import org.zstack.header.host.HostVO;
import org.zstack.header.longjob.LongJob;
import org.zstack.header.longjob.LongJobFor;
import org.zstack.header.longjob.LongJobVO;
import org.zstack.header.longjob.LongJobVO_;
import org.zstack.header.message.APIEvent;
import org.zstack.utils.gson.JSONObjectUtil;

import java.sql.Timestamp;

/**
 * RunIoModeBenchmark as a ZStack long job (APISubmitLongJobMsg, jobName APIRunIoModeBenchmarkMsg, jobData the
 * message's fields as JSON): its progress under the job's apiId (GetTaskProgress), cancel between two runs
 * (CancelLongJob: the run in flight ends, then the scratch files are removed and the job is Canceled). ZStack makes
 * this class with its no-argument constructor and copies it per job; the module's beans are looked up when it runs.
 * The job's uuid tags its scratch files, so the final call removes exactly this job's.
 */
@LongJobFor(APIRunIoModeBenchmarkMsg.class)
public class IoModeBenchmarkLongJob implements LongJob {
    private String hostUuid;

    @Override
    public void start(LongJobVO job, ReturnValueCompletion<APIEvent> completion) {
        APIRunIoModeBenchmarkMsg msg = JSONObjectUtil.toObject(job.getJobData(), APIRunIoModeBenchmarkMsg.class);
        hostUuid = msg.getHostUuid();
        if (job.getCreateDate() == null) {
            // ZStack 5.2.0 never sets LongJobVO.createDate and its column has no default where the database makes a
            // plain timestamp NULL (MariaDB >= 10.10): the job's end then fails in ZStack's own LongJobUtils
            // (setExecuteTimeIfNeed: createDate.getTime()) and the job stays Running. This job's row gets its date.
            SQL.New(LongJobVO.class).eq(LongJobVO_.uuid, job.getUuid()).set(LongJobVO_.createDate,
                    new Timestamp(System.currentTimeMillis())).update();
        }
        Platform.getComponentLoader().getComponent(BenchmarkRequests.class).run(msg, job.getUuid(), job.getApiId(),
                new BenchmarkRequests.Answer() {
                    @Override
                    public void success(APIRunIoModeBenchmarkEvent event) {
                        completion.success(event);
                    }

                    @Override
                    public void fail(ErrorCode error) {
                        completion.fail(error);
                    }
                });
    }

    /**
     * Asks the benchmark to stop before its next run and answers false (not yet cancelled): ZStack keeps the job
     * Canceling until the benchmark ends, and its end (a cancel error) makes it Canceled. A job not running on this
     * node (it ended, or its node restarted) is cancelled at once.
     */
    @Override
    public void cancel(LongJobVO job, ReturnValueCompletion<Boolean> completion) {
        boolean running = Platform.getComponentLoader().getComponent(IoModeBenchmarks.class)
                .cancel(job.getUuid(), "cancelled by CancelLongJob");
        completion.success(!running);
    }

    @Override
    public Class getAuditType() {
        return HostVO.class;
    }

    @Override
    public String getAuditResourceUuid() {
        return hostUuid;
    }
}
