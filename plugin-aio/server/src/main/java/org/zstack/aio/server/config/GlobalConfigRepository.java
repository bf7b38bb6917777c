package org.zstack.aio.server.config;

import org.springframework.data.jpa.repository.JpaRepository;

import java.util.Optional;

public interface GlobalConfigRepository extends JpaRepository<GlobalConfigVO, Long> {
    Optional<GlobalConfigVO> findByCategoryAndName(String category, String name);

    /**
     * A whole number of seconds from a global config read by a background task; {@code fallback} when the row is
     * missing or not such a number (sync writes valid rows; the task must not die on a hand-edited one). 0 is a
     * value only when {@code zeroAllowed}.
     */
    default int seconds(String category, String name, int fallback, boolean zeroAllowed) {
        return findByCategoryAndName(category, name).map(GlobalConfigVO::getValue)
                .filter(v -> v.matches("[0-9]{1,6}")).map(Integer::parseInt).filter(i -> zeroAllowed || i > 0).orElse(fallback);
    }
}
