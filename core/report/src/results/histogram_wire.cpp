// Little-endian throughout; doubles travel as their IEEE-754 bit patterns so
// the moments arrive exactly.
#include "cmdbench/report/histogram_wire.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace cmdbench {
namespace {

constexpr uint8_t kMagic[4] = {'c', 'b', 'h', '1'};

void put(std::vector<uint8_t> &out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i)
        out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void put_double(std::vector<uint8_t> &out, double d) {
    uint64_t bits = 0;
    std::memcpy(&bits, &d, sizeof bits);
    put(out, bits, 8);
}

// Reads fixed-width fields; the caller checked the total length first.
struct Reader {
    const uint8_t *at;
    uint64_t get(int bytes) {
        uint64_t v = 0;
        for (int i = 0; i < bytes; ++i)
            v |= uint64_t{at[i]} << (8 * i);
        at += bytes;
        return v;
    }
    double get_double() {
        const uint64_t bits = get(8);
        double d = 0;
        std::memcpy(&d, &bits, sizeof d);
        return d;
    }
};

[[noreturn]] void fail(const std::string &why) {
    throw std::invalid_argument("bad histogram: " + why);
}

} // namespace

std::vector<uint8_t> encode_hist_wire(const Histogram &h) {
    const Histogram::Wire w = h.to_wire();
    std::vector<uint8_t> out;
    out.reserve(kHistWireHeaderBytes + w.buckets.size() * kHistWireBucketBytes);
    for (uint8_t byte : kMagic)
        out.push_back(byte);
    put(out, w.count, 8);
    put(out, w.min, 8);
    put(out, w.max, 8);
    put_double(out, w.sum);
    put_double(out, w.sum_sq);
    put(out, w.buckets.size(), 4);
    for (const auto &[index, n] : w.buckets) {
        put(out, index, 4);
        put(out, n, 8);
    }
    return out;
}

Histogram decode_hist_wire(const uint8_t *data, size_t size) {
    if (size < kHistWireHeaderBytes)
        fail(std::to_string(size) + " bytes, fewer than the " +
             std::to_string(kHistWireHeaderBytes) + " of the header");
    if (std::memcmp(data, kMagic, sizeof kMagic) != 0)
        fail("not a cmdbench histogram (wrong magic; the peer sent something else)");
    Reader r{data + sizeof kMagic};
    Histogram::Wire w{};
    w.count = r.get(8);
    w.min = r.get(8);
    w.max = r.get(8);
    w.sum = r.get_double();
    w.sum_sq = r.get_double();
    const uint64_t listed = r.get(4);
    if (listed > Histogram::kBucketCount)
        fail(std::to_string(listed) + " buckets listed, at most " +
             std::to_string(Histogram::kBucketCount));
    const size_t want = kHistWireHeaderBytes + listed * kHistWireBucketBytes;
    if (size != want)
        fail(std::to_string(size) + " bytes for " + std::to_string(listed) + " buckets, expected " +
             std::to_string(want));
    w.buckets.reserve(listed);
    for (uint64_t k = 0; k < listed; ++k) {
        const uint32_t index = static_cast<uint32_t>(r.get(4));
        w.buckets.emplace_back(index, r.get(8));
    }
    return Histogram::from_wire(w); // indices, counts and moments
}

} // namespace cmdbench
