// The histogram wire form peers exchange (hist_send / hist_recv): a round
// trip keeps every statistic exactly, and any malformed or hostile input is
// a "bad histogram: ..." error, never a crash or a wrong histogram.
#include "cmdbench/report/histogram_wire.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

using cmdbench::decode_hist_wire;
using cmdbench::encode_hist_wire;
using cmdbench::Histogram;

namespace {

Histogram decode(const std::vector<uint8_t> &w) {
    return decode_hist_wire(w.data(), w.size());
}

void check_same(const Histogram &a, const Histogram &b) {
    const auto x = a.summary(), y = b.summary();
    CHECK(x.count == y.count);
    CHECK(x.min == y.min);
    CHECK(x.max == y.max);
    CHECK(x.mean == y.mean); // exact: the moments travel as their bits
    CHECK(x.stddev == y.stddev);
    for (double p : {0.1, 1.0, 25.0, 50.0, 90.0, 99.0, 99.9, 99.99})
        CHECK(a.percentile(p) == b.percentile(p));
    CHECK(encode_hist_wire(a) == encode_hist_wire(b));
}

// A valid wire of a few buckets, for the corruption cases. Layout: magic 0,
// count 4, min 12, max 20, sum 28, sum_sq 36, buckets 44, pairs from 48.
std::vector<uint8_t> sample_wire() {
    Histogram h;
    for (uint64_t v : {3, 3, 700, 1000000})
        h.record(v);
    return encode_hist_wire(h);
}

void put_le(std::vector<uint8_t> &w, size_t at, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i)
        w[at + size_t(i)] = uint8_t(v >> (8 * i));
}

void put_double(std::vector<uint8_t> &w, size_t at, double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    put_le(w, at, bits, 8);
}

void check_refused(const std::vector<uint8_t> &w, const std::string &why) {
    INFO("expecting: " << why);
    CHECK_THROWS_WITH(decode(w), Catch::StartsWith("bad histogram: ") && Catch::Contains(why));
}

} // namespace

TEST_CASE("histogram wire: round trips keep every statistic") {
    SECTION("empty") {
        Histogram h;
        const auto w = encode_hist_wire(h);
        CHECK(w.size() == cmdbench::kHistWireHeaderBytes);
        check_same(h, decode(w));
    }
    SECTION("extremes and every range") {
        Histogram h;
        for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{255}, uint64_t{256}, uint64_t{257},
                           uint64_t{1000000007}, uint64_t{1} << 40, UINT64_MAX})
            h.record(v);
        check_same(h, decode(encode_hist_wire(h)));
    }
    SECTION("random latencies, as a step's connections give") {
        std::mt19937_64 rng(42);
        std::lognormal_distribution<double> d(10, 2);
        Histogram h;
        for (int i = 0; i < 100000; ++i)
            h.record(uint64_t(d(rng)));
        const auto w = encode_hist_wire(h);
        // 100k samples over 2,000-odd buckets: a thirtieth of the raw samples.
        CHECK(w.size() < 100000 * 8 / 25);
        check_same(h, decode(w));
    }
    SECTION("every bucket filled: the largest wire") {
        Histogram h;
        for (uint32_t shift = 0; shift <= 56; ++shift)
            for (uint64_t low = (shift ? 128 : 0); low < 256; ++low)
                h.record(low << shift);
        const auto w = encode_hist_wire(h);
        CHECK(w.size() == cmdbench::kHistWireMaxBytes);
        CHECK(w.size() < 1024 * 1024 - 64); // one control message
        check_same(h, decode(w));
    }
}

TEST_CASE("histogram wire: malformed input is refused with the reason") {
    const std::vector<uint8_t> good = sample_wire();
    REQUIRE_NOTHROW(decode(good));

    SECTION("truncated anywhere") {
        for (size_t n = 0; n < good.size(); ++n)
            CHECK_THROWS_AS(decode(std::vector<uint8_t>(good.begin(), good.begin() + long(n))),
                            std::invalid_argument);
        check_refused({good.begin(), good.begin() + 10}, "fewer than the 48 of the header");
        check_refused({good.begin(), good.end() - 1}, "expected");
    }
    SECTION("trailing bytes") {
        auto w = good;
        w.push_back(0);
        check_refused(w, "bytes for 3 buckets, expected");
    }
    SECTION("wrong magic") {
        auto w = good;
        w[0] = 'x';
        check_refused(w, "wrong magic");
    }
    SECTION("more buckets than exist, and a length that would overflow") {
        auto w = good;
        put_le(w, 44, Histogram::kBucketCount + 1, 4);
        check_refused(w, "buckets listed, at most 7424");
        put_le(w, 44, 0xffffffff, 4);
        check_refused(w, "at most 7424");
    }
    SECTION("bucket index out of range") {
        auto w = good;
        put_le(w, 48 + 2 * 12, Histogram::kBucketCount, 4);
        check_refused(w, "bucket index out of range");
    }
    SECTION("indices out of order or repeated") {
        auto w = good;
        put_le(w, 48 + 12, 0, 4); // second index below the first (3)
        check_refused(w, "not strictly increasing");
    }
    SECTION("an empty bucket listed") {
        auto w = good;
        put_le(w, 48 + 4, 0, 8);
        check_refused(w, "empty bucket listed");
    }
    SECTION("counts that do not add up, or overflow") {
        auto w = good;
        put_le(w, 4, 5, 8);
        check_refused(w, "do not add up");
        w = good;
        put_le(w, 48 + 4, UINT64_MAX, 8);
        check_refused(w, "bucket counts overflow");
    }
    SECTION("sums that are not finite or negative") {
        for (double bad : {std::nan(""), std::numeric_limits<double>::infinity(), -1.0}) {
            auto w = good;
            put_double(w, 28, bad);
            check_refused(w, "sums must be finite and non-negative");
            w = good;
            put_double(w, 36, bad);
            check_refused(w, "sums must be finite and non-negative");
        }
    }
    SECTION("min and max that contradict the buckets") {
        auto w = good;
        put_le(w, 12, 2000000, 8);
        check_refused(w, "min above max");
        w = good;
        put_le(w, 12, 4, 8);
        check_refused(w, "min outside the lowest bucket");
        w = good;
        put_le(w, 20, 5000000, 8);
        check_refused(w, "max outside the highest bucket");
    }
    SECTION("an empty histogram with moments") {
        auto w = encode_hist_wire(Histogram{});
        put_le(w, 20, 9, 8);
        check_refused(w, "empty histogram with non-zero moments");
    }
}

TEST_CASE("histogram wire: random corruption never crashes and never decodes wrongly") {
    const std::vector<uint8_t> good = sample_wire();
    std::mt19937 rng(7);
    int refused = 0;
    for (int round = 0; round < 20000; ++round) {
        auto w = good;
        const int flips = 1 + int(rng() % 4);
        for (int f = 0; f < flips; ++f)
            w[rng() % w.size()] ^= uint8_t(1u << (rng() % 8));
        try {
            const Histogram h = decode(w);
            // What decodes is self-consistent: it encodes back to the input.
            CHECK(encode_hist_wire(h) == w);
        } catch (const std::invalid_argument &) {
            ++refused;
        }
    }
    CHECK(refused > 15000);
}
