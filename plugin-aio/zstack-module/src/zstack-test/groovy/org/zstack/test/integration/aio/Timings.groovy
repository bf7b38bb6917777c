package org.zstack.test.integration.aio

/** One arm's timings (ms): the figures docs/performance.md reports, median and spread. */
class Timings {
    final int n
    final double median, mean, min, max, q1, q3

    Timings(List<Double> ms) {
        assert !ms.isEmpty()
        List<Double> s = ms.sort(false)
        n = s.size()
        median = quantile(s, 0.5)
        q1 = quantile(s, 0.25)
        q3 = quantile(s, 0.75)
        mean = s.sum() / n
        min = s[0]
        max = s[-1]
    }

    static double median(List<Double> v) {
        return quantile(v.sort(false), 0.5)
    }

    /** Linear interpolation between the closest ranks of a sorted list. */
    static double quantile(List<Double> sorted, double q) {
        double pos = q * (sorted.size() - 1)
        int lo = (int) Math.floor(pos)
        int hi = Math.min(lo + 1, sorted.size() - 1)
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo)
    }

    @Override
    String toString() {
        return String.format("n=%d median %.1f ms, mean %.1f, IQR %.1f-%.1f (%.1f ms, %.1f%% of the median), min %.1f, max %.1f",
                n, median, mean, q1, q3, q3 - q1, (q3 - q1) / median * 100, min, max)
    }
}
