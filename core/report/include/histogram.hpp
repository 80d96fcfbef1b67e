// Log-linear histogram: exact below 2^kSubBucketBits, then 2^kSubBucketBits
// buckets per power of two, so any recorded value is reported within a
// relative error of 2^-kSubBucketBits. Mergeable (threads, peers).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace cmdbench {

struct HistSummary {
    uint64_t count = 0;
    uint64_t min = 0, max = 0;
    double mean = 0, stddev = 0;
    uint64_t p50 = 0, p90 = 0, p99 = 0, p999 = 0, p9999 = 0;
};

class Histogram {
  public:
    static constexpr int kSubBucketBits = 7;
    static constexpr double relative_error() { return 1.0 / (1 << kSubBucketBits); }
    // Shifts 0 (values < 256) to 56 (values in [2^63, 2^64)), 128 buckets each.
    static constexpr uint32_t kBucketCount = (63 - kSubBucketBits + 2) << kSubBucketBits; // 7424

    Histogram();
    void record(uint64_t value) noexcept; // hot path: no allocation, no lock
    void merge(const Histogram &other);
    void clear();

    uint64_t count() const { return count_; }
    uint64_t min() const;
    uint64_t max() const { return max_; }
    double mean() const;
    double stddev() const;
    // Value at percentile p in [0, 100]: the smallest recorded-bucket value
    // v such that at least p% of samples are <= v (bucket midpoint, clamped
    // to [min, max]).
    uint64_t percentile(double p) const;
    HistSummary summary() const;

    // Wire form for the control channel: (bucket index, count) pairs plus the
    // exact moments, so peers' histograms merge without loss.
    struct Wire {
        uint64_t count, min, max;
        double sum, sum_sq;
        std::vector<std::pair<uint32_t, uint64_t>> buckets;
    };
    Wire to_wire() const;
    static Histogram from_wire(const Wire &w); // throws std::invalid_argument

  private:
    std::vector<uint64_t> buckets_;
    uint64_t count_ = 0, min_ = UINT64_MAX, max_ = 0;
    double sum_ = 0, sum_sq_ = 0;
};

} // namespace cmdbench
