// verbs-bw's send window (see bw_window.hpp).
#include "bw/bw_window.hpp"

#include <algorithm>

namespace cmdbench::verbs {

BwWindow bw_window(int tx_depth, int cq_mod, int64_t size, uint64_t count) {
    BwWindow w{};
    w.tx_depth = uint64_t(std::max(tx_depth, 1));
    if (count > 0) w.tx_depth = std::min(w.tx_depth, count);
    w.cq_mod_auto = cq_mod == kCqModAuto;
    const uint64_t wanted =
        w.cq_mod_auto ? (size > kCqModSizeLimit ? 1 : kCqModSmall) : uint64_t(std::max(cq_mod, 1));
    w.cq_mod = std::min(wanted, w.tx_depth);
    return w;
}

} // namespace cmdbench::verbs
