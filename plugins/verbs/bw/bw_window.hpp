// verbs-bw's send window for one size and phase: how many work requests a
// QP keeps outstanding and how often one is signalled. The defaults follow
// perftest's rule, so a run at defaults moves data as ib_*_bw does at its
// own; a value the user set is kept.
#ifndef CMDBENCH_VERBS_BW_WINDOW_HPP
#define CMDBENCH_VERBS_BW_WINDOW_HPP

#include "verbs_params.hpp"

#include <cstdint>

namespace cmdbench::verbs {

// kCqModAuto (verbs_params.hpp): cq_mod chosen by message size (perftest's rule).
// Up to this size a signalled request every kCqModSmall; above, every one:
// a large message takes long enough that a window drained to its last
// signalled request leaves the link idle (perftest's 8 KiB limit).
constexpr int64_t kCqModSizeLimit = 8192;
constexpr int kCqModSmall = 100;

struct BwWindow {
    uint64_t tx_depth;
    uint64_t cq_mod;
    bool cq_mod_auto; // cq_mod came from the size rule, not the user
};

// `count`: the phase's messages per QP, 0 for a timed (duration) phase. The
// depth is capped to `count` and cq_mod to the depth, as perftest caps them.
BwWindow bw_window(int tx_depth, int cq_mod, int64_t size, uint64_t count);

} // namespace cmdbench::verbs

#endif
