// Bucket layout: let s = max(0, floor(log2(v)) - 7). Bucket index is
// s * 128 + (v >> s): values below 256 get one bucket each (exact), and every
// power of two [2^e, 2^(e+1)) with e >= 8 is split into 128 buckets of width
// 2^(e-7). The index is computed without branches (OR with 255 makes the
// shift 0 for small values), so record() is clz + shift + add + increment.
#include "cmdbench/report/histogram.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cmdbench {
namespace {

constexpr int kSubBuckets = 1 << Histogram::kSubBucketBits; // 128

inline uint32_t bucket_of(uint64_t v) {
    const int top_bit = 63 - __builtin_clzll(v | (2 * kSubBuckets - 1));
    const int shift = top_bit - Histogram::kSubBucketBits;
    return static_cast<uint32_t>(shift * kSubBuckets) + static_cast<uint32_t>(v >> shift);
}

inline int shift_of(uint32_t index) {
    return std::max(static_cast<int>(index / kSubBuckets) - 1, 0);
}

inline uint64_t bucket_low(uint32_t index) {
    const int shift = shift_of(index);
    return static_cast<uint64_t>(index - static_cast<uint32_t>(shift * kSubBuckets)) << shift;
}

// The value reported for a bucket: its middle, so the error is at most half a
// bucket width (a relative 2^-8 of the smallest value in the bucket).
inline uint64_t bucket_mid(uint32_t index) {
    const uint64_t width = uint64_t{1} << shift_of(index);
    return bucket_low(index) + width / 2;
}

} // namespace

uint64_t min_samples_for(double percentile) {
    if (!(percentile > 50)) return 1;
    if (percentile >= 100) return 1;
    // The slack absorbs the representation error of p (100 - 99.9 is a
    // little below 0.1, which would make p99.9 need 1001).
    return static_cast<uint64_t>(std::ceil(100.0 / (100.0 - percentile) * (1 - 1e-9)));
}

void drop_percentiles_of_too_few_samples(HistSummary &s) {
    for (const auto &p : kSummaryPercentiles)
        if (s.count < min_samples_for(p.percentile)) s.*p.field = std::nullopt;
}

Histogram::Histogram() : buckets_(kBucketCount, 0) {}

void Histogram::record(uint64_t value) noexcept {
    ++buckets_[bucket_of(value)];
    ++count_;
    min_ = std::min(min_, value);
    max_ = std::max(max_, value);
    const double v = static_cast<double>(value);
    sum_ += v;
    sum_sq_ += v * v;
}

void Histogram::merge(const Histogram &other) {
    for (uint32_t i = 0; i < kBucketCount; ++i)
        buckets_[i] += other.buckets_[i];
    count_ += other.count_;
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
    sum_ += other.sum_;
    sum_sq_ += other.sum_sq_;
}

void Histogram::clear() {
    std::fill(buckets_.begin(), buckets_.end(), 0);
    count_ = 0;
    min_ = UINT64_MAX;
    max_ = 0;
    sum_ = sum_sq_ = 0;
}

uint64_t Histogram::min() const {
    return count_ == 0 ? 0 : min_;
}

double Histogram::mean() const {
    return count_ == 0 ? 0.0 : sum_ / static_cast<double>(count_);
}

double Histogram::stddev() const {
    // Population standard deviation. All-equal samples are exactly 0 even
    // when the squared sums have rounded.
    if (count_ < 2 || min_ == max_) return 0.0;
    const double n = static_cast<double>(count_);
    const double variance = (sum_sq_ - sum_ * sum_ / n) / n;
    return variance > 0 ? std::sqrt(variance) : 0.0;
}

uint64_t Histogram::percentile(double p) const {
    if (count_ == 0) return 0;
    if (!(p > 0)) return min();
    if (p >= 100) return max_;
    // Nearest rank: ceil(p% of count). The tiny relative slack absorbs the
    // representation error of p itself (99.9 is slightly above 99.9).
    const double exact_rank = p / 100.0 * static_cast<double>(count_);
    uint64_t rank = static_cast<uint64_t>(std::ceil(exact_rank * (1 - 1e-12)));
    rank = std::clamp<uint64_t>(rank, 1, count_);
    uint64_t seen = 0;
    for (uint32_t i = bucket_of(min_); i < kBucketCount; ++i) {
        seen += buckets_[i];
        if (seen >= rank) return std::clamp(bucket_mid(i), min_, max_);
    }
    return max_; // unreachable while the bucket counts add up to count_
}

HistSummary Histogram::summary() const {
    HistSummary s;
    s.count = count_;
    s.min = min();
    s.max = max_;
    s.mean = mean();
    s.stddev = stddev();
    for (const auto &p : kSummaryPercentiles)
        if (count_ >= min_samples_for(p.percentile)) s.*p.field = percentile(p.percentile);
    return s;
}

Histogram::Wire Histogram::to_wire() const {
    Wire w{count_, min(), max_, sum_, sum_sq_, {}};
    for (uint32_t i = 0; i < kBucketCount; ++i)
        if (buckets_[i] != 0) w.buckets.emplace_back(i, buckets_[i]);
    return w;
}

Histogram Histogram::from_wire(const Wire &w) {
    auto fail = [](const char *why) {
        throw std::invalid_argument(std::string("bad histogram: ") + why);
    };
    if (!std::isfinite(w.sum) || !std::isfinite(w.sum_sq) || w.sum < 0 || w.sum_sq < 0)
        fail("sums must be finite and non-negative");
    Histogram h;
    uint64_t total = 0;
    uint32_t previous = 0;
    for (size_t k = 0; k < w.buckets.size(); ++k) {
        const auto [index, n] = w.buckets[k];
        if (index >= kBucketCount) fail("bucket index out of range");
        if (k > 0 && index <= previous) fail("bucket indices not strictly increasing");
        if (n == 0) fail("empty bucket listed");
        if (__builtin_add_overflow(total, n, &total)) fail("bucket counts overflow");
        h.buckets_[index] = n;
        previous = index;
    }
    if (total != w.count) fail("bucket counts do not add up to the total");
    if (w.count == 0) {
        if (w.min != 0 || w.max != 0 || w.sum != 0 || w.sum_sq != 0)
            fail("empty histogram with non-zero moments");
        return h;
    }
    if (w.min > w.max) fail("min above max");
    if (bucket_of(w.min) != w.buckets.front().first) fail("min outside the lowest bucket");
    if (bucket_of(w.max) != w.buckets.back().first) fail("max outside the highest bucket");
    h.count_ = w.count;
    h.min_ = w.min;
    h.max_ = w.max;
    h.sum_ = w.sum;
    h.sum_sq_ = w.sum_sq;
    return h;
}

} // namespace cmdbench
