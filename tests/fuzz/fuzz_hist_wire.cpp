// libFuzzer target: the histogram wire decoder behind host service hist_recv
// on arbitrary bytes from a peer. Only std::invalid_argument may escape; a
// histogram that decodes must re-encode stably and have ordered statistics.
#include "histogram_wire.hpp"

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
        const cmdbench::HistSummary s = h.summary();
        if (s.count && !(s.min <= s.p50 && s.p50 <= s.p99 && s.p99 <= s.max)) __builtin_trap();
    } catch (const std::invalid_argument &) {
    }
    return 0;
}
