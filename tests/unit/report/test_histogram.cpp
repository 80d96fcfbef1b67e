// Histogram against exact statistics of the same samples.
#include "cmdbench/report/histogram.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

using cmdbench::Histogram;

namespace {

// Percentiles as parts per ten thousand, so the reference rank is integer math.
struct Pct {
    double p;
    uint64_t per10k;
};
const Pct kPercentiles[] = {{1, 100},   {10, 1000}, {25, 2500},   {50, 5000},   {75, 7500},
                            {90, 9000}, {99, 9900}, {99.9, 9990}, {99.99, 9999}};

// Nearest-rank percentile of sorted samples: the ceil(p% * n)-th smallest.
uint64_t exact_percentile(const std::vector<uint64_t> &sorted, uint64_t per10k) {
    const uint64_t n = sorted.size();
    uint64_t rank = (n * per10k + 9999) / 10000;
    rank = std::max<uint64_t>(rank, 1);
    return sorted[rank - 1];
}

Histogram record_all(const std::vector<uint64_t> &values) {
    Histogram h;
    for (uint64_t v : values)
        h.record(v);
    return h;
}

void check_against_exact(std::vector<uint64_t> values) {
    const Histogram h = record_all(values);
    std::sort(values.begin(), values.end());
    const long double n = values.size();
    long double sum = 0;
    for (uint64_t v : values)
        sum += v;
    const long double mean = sum / n;
    long double sq = 0;
    for (uint64_t v : values)
        sq += (v - mean) * (v - mean);
    const double stddev = std::sqrt(static_cast<double>(sq / n));

    REQUIRE(h.count() == values.size());
    CHECK(h.min() == values.front());
    CHECK(h.max() == values.back());
    CHECK(h.mean() == Approx(static_cast<double>(mean)).epsilon(1e-12));
    CHECK(h.stddev() == Approx(stddev).epsilon(1e-6).margin(1e-9));

    for (const auto &pct : kPercentiles) {
        const double exact = static_cast<double>(exact_percentile(values, pct.per10k));
        const double got = static_cast<double>(h.percentile(pct.p));
        INFO("p" << pct.p << " exact " << exact << " got " << got);
        CHECK(std::fabs(got - exact) <= exact * Histogram::relative_error());
    }
    CHECK(h.percentile(0) == values.front());
    CHECK(h.percentile(100) == values.back());
}

} // namespace

TEST_CASE("relative error bound is 1/128") {
    CHECK(Histogram::relative_error() == 1.0 / 128);
}

TEST_CASE("empty histogram reports zeros") {
    Histogram h;
    CHECK(h.count() == 0);
    CHECK(h.min() == 0);
    CHECK(h.max() == 0);
    CHECK(h.mean() == 0);
    CHECK(h.stddev() == 0);
    CHECK(h.percentile(50) == 0);
    const auto s = h.summary();
    CHECK(s.count == 0);
    CHECK(s.min == 0);
    CHECK(s.max == 0);
    // No sample, no percentile: not even the median.
    CHECK_FALSE(s.p50);
    CHECK_FALSE(s.p99);
}

TEST_CASE("a percentile needs enough samples that one lies above it") {
    using cmdbench::min_samples_for;
    CHECK(min_samples_for(50) == 1); // the median of one sample is that sample
    CHECK(min_samples_for(90) == 10);
    CHECK(min_samples_for(99) == 100);
    CHECK(min_samples_for(99.9) == 1000); // not 1001: 100 - 99.9 is a little below 0.1
    CHECK(min_samples_for(99.99) == 10000);
    CHECK(min_samples_for(75) == 4);
    CHECK(min_samples_for(0) == 1);
    CHECK(min_samples_for(100) == 1); // the maximum
}

TEST_CASE("summary: percentiles of too few samples are absent") {
    // One sample (a 1-iteration row): the median only; min, max, mean given.
    Histogram one;
    one.record(357691000);
    auto s = one.summary();
    CHECK(s.count == 1);
    CHECK(s.min == 357691000);
    CHECK(s.max == 357691000);
    CHECK(s.mean == 357691000.0);
    REQUIRE(s.p50);
    CHECK(*s.p50 == 357691000);
    CHECK_FALSE(s.p90);
    CHECK_FALSE(s.p99);
    CHECK_FALSE(s.p999);
    CHECK_FALSE(s.p9999);

    // Each percentile appears at exactly the count it needs, not one sample
    // before: 9 samples have no p90, 10 have one.
    Histogram h;
    uint64_t next = 1000;
    auto grow_to = [&](uint64_t n) {
        while (h.count() < n)
            h.record(next++);
    };
    const struct {
        uint64_t count;
        bool p90, p99, p999, p9999;
    } steps[] = {{9, false, false, false, false}, {10, true, false, false, false},
                 {99, true, false, false, false}, {100, true, true, false, false},
                 {999, true, true, false, false}, {1000, true, true, true, false},
                 {9999, true, true, true, false}, {10000, true, true, true, true}};
    for (const auto &step : steps) {
        grow_to(step.count);
        s = h.summary();
        INFO("count " << step.count);
        CHECK(bool(s.p50));
        CHECK(bool(s.p90) == step.p90);
        CHECK(bool(s.p99) == step.p99);
        CHECK(bool(s.p999) == step.p999);
        CHECK(bool(s.p9999) == step.p9999);
        // Those given are the histogram's percentiles.
        if (s.p99) CHECK(*s.p99 == h.percentile(99));
    }
}

TEST_CASE("drop_percentiles_of_too_few_samples: the same rule on a summary read back") {
    // What an older results file holds: every percentile a number, of 5 samples.
    cmdbench::HistSummary s;
    s.count = 5;
    s.min = 10;
    s.max = 50;
    s.p50 = 30;
    s.p90 = s.p99 = s.p999 = s.p9999 = 50;
    cmdbench::drop_percentiles_of_too_few_samples(s);
    CHECK(s.p50 == uint64_t{30});
    CHECK_FALSE(s.p90);
    CHECK_FALSE(s.p99);
    CHECK_FALSE(s.p999);
    CHECK_FALSE(s.p9999);
    s.count = 100;
    s.p90 = s.p99 = 50;
    cmdbench::drop_percentiles_of_too_few_samples(s);
    CHECK(s.p90 == uint64_t{50});
    CHECK(s.p99 == uint64_t{50});
}

TEST_CASE("small values are exact") {
    // Every value below 256 has its own bucket: percentiles are exact.
    std::vector<uint64_t> values;
    for (uint64_t v = 0; v < 256; ++v)
        values.push_back(v);
    const Histogram h = record_all(values);
    for (const auto &pct : kPercentiles)
        CHECK(h.percentile(pct.p) == exact_percentile(values, pct.per10k));
}

TEST_CASE("percentiles of uniform data") {
    std::mt19937_64 rng(1);
    std::uniform_int_distribution<uint64_t> dist(1000, 2000000);
    std::vector<uint64_t> values(200000);
    for (auto &v : values)
        v = dist(rng);
    check_against_exact(values);
}

TEST_CASE("percentiles of exponential long-tail data") {
    std::mt19937_64 rng(2);
    std::exponential_distribution<double> body(1.0 / 5000); // mean 5 us
    std::vector<uint64_t> values(200000);
    for (auto &v : values)
        v = static_cast<uint64_t>(body(rng)) + 800;
    // A heavy tail: 1% of samples 100x to 10000x slower.
    std::uniform_real_distribution<double> tail(5.0, 7.7);
    for (size_t i = 0; i < values.size(); i += 100)
        values[i] = static_cast<uint64_t>(std::pow(10.0, tail(rng)));
    check_against_exact(values);
}

TEST_CASE("percentiles of constant data") {
    check_against_exact(std::vector<uint64_t>(1000, 4242));
    // Large constant: the squared sums round, the stddev must still be 0.
    const Histogram h = record_all(std::vector<uint64_t>(100000, 7000000123ull));
    CHECK(h.stddev() == 0);
    CHECK(h.percentile(50) == 7000000123ull);
    CHECK(h.mean() == Approx(7000000123.0).epsilon(1e-15));
}

TEST_CASE("percentiles of data spanning 1 ns to 10 s") {
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> exponent(0.0, 10.0);
    std::vector<uint64_t> values(300000);
    for (auto &v : values)
        v = static_cast<uint64_t>(std::pow(10.0, exponent(rng)));
    values.push_back(1);
    values.push_back(10000000000ull);
    check_against_exact(values);
}

TEST_CASE("every bucket reports within the relative error") {
    // Powers of two and their neighbours across the whole range. A lone
    // sample would be clamped to itself, so surround it with 0 and UINT64_MAX
    // and ask for the middle one.
    for (int e = 0; e < 64; ++e) {
        for (uint64_t v : {(uint64_t{1} << e) - 1, uint64_t{1} << e, (uint64_t{1} << e) + 1,
                           (uint64_t{1} << e) + (uint64_t{1} << e) / 3}) {
            Histogram h;
            h.record(0);
            h.record(v);
            h.record(UINT64_MAX);
            const double got = static_cast<double>(h.percentile(60));
            INFO("value " << v << " got " << got);
            CHECK(std::fabs(got - static_cast<double>(v)) <=
                  static_cast<double>(v) * Histogram::relative_error());
        }
    }
}

TEST_CASE("zero and UINT64_MAX are recorded") {
    Histogram h;
    h.record(0);
    h.record(UINT64_MAX);
    CHECK(h.count() == 2);
    CHECK(h.min() == 0);
    CHECK(h.max() == UINT64_MAX);
    CHECK(h.percentile(50) == 0);
    CHECK(h.percentile(100) == UINT64_MAX);
    // The top bucket's middle, within the error bound of the maximum.
    CHECK(static_cast<double>(h.percentile(99)) >=
          static_cast<double>(UINT64_MAX) * (1 - Histogram::relative_error()));
    CHECK(h.mean() == Approx(static_cast<double>(UINT64_MAX) / 2));

    Histogram top;
    top.record(UINT64_MAX);
    top.record(UINT64_MAX - 1);
    CHECK(top.percentile(50) >= UINT64_MAX - 1);
    const Histogram back = Histogram::from_wire(top.to_wire());
    CHECK(back.max() == UINT64_MAX);
    CHECK(back.min() == UINT64_MAX - 1);
}

TEST_CASE("merge equals recording everything into one") {
    std::mt19937_64 rng(4);
    std::lognormal_distribution<double> dist(9.0, 2.0);
    Histogram all, a, b, c;
    for (int i = 0; i < 50000; ++i) {
        const auto v = static_cast<uint64_t>(dist(rng));
        all.record(v);
        (i % 3 == 0 ? a : i % 3 == 1 ? b : c).record(v);
    }
    Histogram merged;
    merged.merge(a);
    merged.merge(b);
    merged.merge(c);
    CHECK(merged.count() == all.count());
    CHECK(merged.min() == all.min());
    CHECK(merged.max() == all.max());
    CHECK(merged.mean() == Approx(all.mean()).epsilon(1e-12));
    CHECK(merged.stddev() == Approx(all.stddev()).epsilon(1e-9));
    const auto wm = merged.to_wire(), wa = all.to_wire();
    CHECK(wm.buckets == wa.buckets);
    for (double p : {0.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0})
        CHECK(merged.percentile(p) == all.percentile(p));

    Histogram empty;
    merged.merge(empty); // merging nothing changes nothing
    CHECK(merged.min() == all.min());
    CHECK(merged.count() == all.count());
}

TEST_CASE("clear empties the histogram") {
    Histogram h;
    h.record(5);
    h.record(5000);
    h.clear();
    CHECK(h.count() == 0);
    CHECK(h.min() == 0);
    CHECK(h.max() == 0);
    CHECK(h.to_wire().buckets.empty());
    h.record(77);
    CHECK(h.min() == 77);
    CHECK(h.percentile(50) == 77);
}

TEST_CASE("wire round trip keeps everything") {
    std::mt19937_64 rng(5);
    std::exponential_distribution<double> dist(1e-6);
    Histogram h;
    for (int i = 0; i < 20000; ++i)
        h.record(static_cast<uint64_t>(dist(rng)));
    const Histogram::Wire w = h.to_wire();
    CHECK(w.count == 20000);
    CHECK(std::is_sorted(w.buckets.begin(), w.buckets.end()));
    const Histogram back = Histogram::from_wire(w);
    CHECK(back.count() == h.count());
    CHECK(back.min() == h.min());
    CHECK(back.max() == h.max());
    CHECK(back.mean() == h.mean());
    CHECK(back.stddev() == h.stddev());
    CHECK(back.to_wire().buckets == w.buckets);
    for (double p : {1.0, 50.0, 99.0, 99.99})
        CHECK(back.percentile(p) == h.percentile(p));

    const Histogram empty = Histogram::from_wire(Histogram().to_wire());
    CHECK(empty.count() == 0);
    CHECK(empty.min() == 0);
}

TEST_CASE("from_wire rejects bad input") {
    Histogram h;
    for (uint64_t v : {3, 300, 30000, 3000000})
        h.record(v);
    const Histogram::Wire good = h.to_wire();
    REQUIRE_NOTHROW(Histogram::from_wire(good));

    auto rejects = [&](auto mutate) {
        Histogram::Wire w = good;
        mutate(w);
        CHECK_THROWS_AS(Histogram::from_wire(w), std::invalid_argument);
    };
    rejects([](Histogram::Wire &w) { w.count += 1; });
    rejects([](Histogram::Wire &w) { w.buckets.back().second += 1; });
    rejects([](Histogram::Wire &w) { w.buckets.back().first = 1000000; });
    rejects([](Histogram::Wire &w) { w.buckets.back().first = UINT32_MAX; });
    rejects([](Histogram::Wire &w) { std::swap(w.buckets[0], w.buckets[1]); });
    rejects([](Histogram::Wire &w) { w.buckets.push_back(w.buckets.back()); });
    rejects([](Histogram::Wire &w) {
        w.buckets.push_back({w.buckets.back().first + 1, 0}); // listed but empty
    });
    rejects([](Histogram::Wire &w) { w.min = 7; });       // not in the lowest bucket
    rejects([](Histogram::Wire &w) { w.max = 5000000; }); // not in the highest bucket
    rejects([](Histogram::Wire &w) { std::swap(w.min, w.max); });
    rejects([](Histogram::Wire &w) { w.sum = -1; });
    rejects([](Histogram::Wire &w) { w.sum_sq = std::nan(""); });
    rejects([](Histogram::Wire &w) { w.sum = INFINITY; });
    rejects([](Histogram::Wire &w) {
        // Counts that wrap around to the right total.
        w.buckets[0].second = UINT64_MAX;
        w.buckets[1].second = 2;
        w.count = 1 + w.buckets[2].second + w.buckets[3].second;
    });
    rejects([](Histogram::Wire &w) {
        w.buckets.clear();
        w.count = 0;
        w.min = w.max = 0;
        w.sum = 1; // empty but with moments
    });
    rejects([](Histogram::Wire &w) { w.buckets.clear(); }); // count says 4
}
