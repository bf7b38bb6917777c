package org.zstack.aio.server.db;

import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.retry.annotation.EnableRetry;
import org.springframework.retry.interceptor.RetryInterceptorBuilder;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Retry of whole units of work on a Galera (or plain MariaDB) cluster, through Spring Retry. A service method
 * annotated {@code @Retryable(interceptor = UnitOfWork.IDEMPOTENT)} or {@code UnitOfWork.NOT_IDEMPOTENT} runs
 * again, transaction and all, when the database says it lost a conflict or the connection broke; the retry
 * advice wraps the transaction advice, so every attempt is a fresh transaction on a fresh connection. A call made
 * inside a running transaction is not retried there: the outermost unit of work is.
 */
@Configuration
@EnableRetry
public class DatabaseRetryConfiguration {


    @Bean
    UnitOfWork unitOfWork(@Value("${aio.db.retry.max-attempts:10}") int maxAttempts,
                          @Value("${aio.db.retry.initial-backoff-ms:20}") long initialMs,
                          @Value("${aio.db.retry.max-backoff-ms:1000}") long maxMs,
                          PoolHome pool) {
        return new UnitOfWork(maxAttempts, initialMs, maxMs, pool);
    }

    @Bean(UnitOfWork.IDEMPOTENT)
    MethodInterceptor idempotentUnitOfWork(UnitOfWork work) {
        return outermostOnly(RetryInterceptorBuilder.stateless().retryOperations(work.idempotentTemplate()).build());
    }

    @Bean(UnitOfWork.NOT_IDEMPOTENT)
    MethodInterceptor nonIdempotentUnitOfWork(UnitOfWork work) {
        return outermostOnly(RetryInterceptorBuilder.stateless().retryOperations(work.conflictTemplate()).build());
    }

    @Bean(UnitOfWork.ENSURE)
    MethodInterceptor ensureUnitOfWork(UnitOfWork work) {
        return outermostOnly(RetryInterceptorBuilder.stateless().retryOperations(work.ensureTemplate()).build());
    }

    private static MethodInterceptor outermostOnly(MethodInterceptor retry) {
        return invocation -> TransactionSynchronizationManager.isActualTransactionActive()
                ? invocation.proceed() : retry.invoke(invocation);
    }
}
