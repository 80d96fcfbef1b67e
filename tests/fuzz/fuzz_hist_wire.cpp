// libFuzzer target: the histogram wire decoder behind host service hist_recv
// on arbitrary bytes from a peer. Only std::invalid_argument may escape; a
// histogram that decodes must re-encode stably and have ordered statistics,
// percentiles only where it has samples enough.
#include "cmdbench/report/histogram_wire.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    try {
        const cmdbench::Histogram h = cmdbench::decode_hist_wire(data, size);
        const auto wire = cmdbench::encode_hist_wire(h);
        if (wire.size() > cmdbench::kHistWireMaxBytes) __builtin_trap();
        if (cmdbench::encode_hist_wire(cmdbench::decode_hist_wire(wire.data(), wire.size())) !=
            wire)
            __builtin_trap();
        // The percentiles given are those the count is enough for, in order
        // between min and max.
        const cmdbench::HistSummary s = h.summary();
        uint64_t floor = s.min;
        for (const auto &p : cmdbench::kSummaryPercentiles) {
            const auto &v = s.*p.field;
            if (bool(v) != (s.count >= cmdbench::min_samples_for(p.percentile))) __builtin_trap();
            if (!v) continue;
            if (*v < floor || *v > s.max) __builtin_trap();
            floor = *v;
        }
    } catch (const std::invalid_argument &) {
    }
    return 0;
}
