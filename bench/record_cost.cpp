// Cost of recording one sample, the only stats work on a test's hot path.
// Two ways in: Histogram::record called directly (the host's own code), and
// the hist_record entry of the host's services table, which is what a plugin
// actually pays (an indirect call into the host). Both come from the host's
// static core library, so no inlining across the call hides any cost.
//
// Three value streams: "mixed" cycles through a precomputed log-uniform table
// spanning 0 .. ~17 s, so bucket indices jump around a 58 KiB bucket array
// (the pessimistic case); "rtt" stays within 8..32 us like a loopback round
// trip; "constant" is one value (best case). Tables are precomputed so the
// generator stays out of the timing.
#include "cmdbench/host/plugins/host_services.hpp"
#include "cmdbench/report/histogram.hpp"

#include <benchmark/benchmark.h>
#include <cstdint>
#include <random>
#include <vector>

namespace {

constexpr size_t kTableSize = 4096; // power of two: the index wraps with a mask

std::vector<uint64_t> mixed_values() {
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<int> bits(0, 33);
    std::vector<uint64_t> values(kTableSize);
    for (auto &v : values) {
        // Two statements: the order of the two rng draws must not be left to
        // the compiler, or the table differs between builds.
        const int top = bits(rng);
        v = rng() >> (63 - top); // log-uniform magnitudes below 2^(top+1)
    }
    return values;
}

std::vector<uint64_t> rtt_values() {
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<uint64_t> ns(8000, 32000);
    std::vector<uint64_t> values(kTableSize);
    for (auto &v : values)
        v = ns(rng);
    return values;
}

std::vector<uint64_t> constant_values() {
    return std::vector<uint64_t>(kTableSize, 12345);
}

// Histogram::record, called directly.
struct Direct {
    cmdbench::Histogram h;
    void record(uint64_t v) { h.record(v); }
    uint64_t count() const { return h.count(); }
};

// The plugin path: the services table's hist_record on a host-owned histogram.
struct ViaHost {
    cmdbench_ctx ctx;
    const cmdbench_host *host = cmdbench::host_services();
    cmdbench_hist *h = host->hist_create(&ctx);
    void record(uint64_t v) { host->hist_record(h, v); }
    uint64_t count() const { return ctx.hists.back().count(); }
};

template <class Recorder, std::vector<uint64_t> (*Values)()> void record(benchmark::State &state) {
    const std::vector<uint64_t> values = Values();
    Recorder r;
    size_t i = 0;
    for (auto _ : state) {
        r.record(values[i]);
        i = (i + 1) & (kTableSize - 1);
    }
    if (r.count() != static_cast<uint64_t>(state.iterations()))
        state.SkipWithError("histogram count does not match the iterations");
    state.SetItemsProcessed(state.iterations());
}

BENCHMARK_TEMPLATE(record, Direct, mixed_values)->Name("direct/mixed");
BENCHMARK_TEMPLATE(record, Direct, rtt_values)->Name("direct/rtt");
BENCHMARK_TEMPLATE(record, Direct, constant_values)->Name("direct/constant");
BENCHMARK_TEMPLATE(record, ViaHost, mixed_values)->Name("host/mixed");
BENCHMARK_TEMPLATE(record, ViaHost, rtt_values)->Name("host/rtt");
BENCHMARK_TEMPLATE(record, ViaHost, constant_values)->Name("host/constant");

} // namespace

BENCHMARK_MAIN();
