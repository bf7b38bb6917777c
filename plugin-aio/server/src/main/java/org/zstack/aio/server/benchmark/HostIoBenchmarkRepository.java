package org.zstack.aio.server.benchmark;

import org.springframework.data.jpa.repository.JpaRepository;

/** Stored benchmarks; they are listed through the query layer (HostIoBenchmarkService.query). */
public interface HostIoBenchmarkRepository extends JpaRepository<HostIoBenchmarkVO, HostIoBenchmarkVO.Key> {
}
