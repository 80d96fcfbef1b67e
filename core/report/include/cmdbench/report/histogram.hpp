// Log-linear histogram: exact below 2^kSubBucketBits, then 2^kSubBucketBits
// buckets per power of two, so any recorded value is reported within a
// relative error of 2^-kSubBucketBits. Mergeable (threads, peers).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cmdbench {

// How many samples percentile p (in percent) needs before it is a figure:
// enough that a sample lies above it, ceil(100 / (100 - p)): p90 needs 10,
// p99 100, p99.9 1000, p99.99 10000. Below that, p99 is the largest sample
// under another name (docs/results.md). The median is a figure from one
// sample on; p >= 100 is the maximum, always one.
uint64_t min_samples_for(double percentile);

struct HistSummary {
    uint64_t count = 0;
    uint64_t min = 0, max = 0; // 0 when count is 0
    double mean = 0, stddev = 0;
    // Absent when count < min_samples_for(p): every reporter shows them so.
    std::optional<uint64_t> p50, p90, p99, p999, p9999;
};

// The summary's percentile fields with the percentile each one is: the one
// list that whoever fills or reads a summary walks.
struct SummaryPercentile {
    double percentile;
    std::optional<uint64_t> HistSummary::*field;
};
inline constexpr SummaryPercentile kSummaryPercentiles[] = {{50, &HistSummary::p50},
                                                            {90, &HistSummary::p90},
                                                            {99, &HistSummary::p99},
                                                            {99.9, &HistSummary::p999},
                                                            {99.99, &HistSummary::p9999}};

// Clears the percentiles that s.count is too small for (a results file
// written before the rule holds numbers for them).
void drop_percentiles_of_too_few_samples(HistSummary &s);

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
    // to [min, max]), whatever the count: summary() applies min_samples_for.
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
