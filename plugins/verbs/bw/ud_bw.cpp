// verbs-bw with qp_type = "ud" (perftest's ib_send_bw -c UD): the client
// sends with the RC window (tx_depth outstanding, a signalled SEND every
// cq_mod) and is measured as RC send is, at the sender; the server keeps
// rx_depth receives posted. A UD SEND completes at the sender whether or not
// the receiver had a receive posted: messages can be dropped. The server
// therefore counts what arrived, stops once it got everything or nothing
// arrived for kQuietNs after the client said how many it sent, and sends its
// counts back; the row's `lost` is the difference.
#include "bw/bw_runner.hpp"

#include <algorithm>

namespace cmdbench::verbs {
namespace {

struct UdBw {
    using QpSet = UdQpSet;
    static constexpr const char *kCounts = "verbs-bw UD message counts";
    static constexpr const char *kArrivals = "verbs-bw UD arrivals";
    static constexpr const char *kReceiver = "verbs-bw UD receiver";
    static constexpr uint64_t kQuietNs = 1'000'000'000;

    static void adjust(Params &p) { receives_for_every_message(p); }
    static int recv_depth(const Params &p, bool client) { return client ? 1 : p.rx_depth; }
    static std::vector<int64_t> sizes(const Params &p, const QpSet &qp_set) {
        return ud_sizes(p.sizes, p.sizes_by_default, qp_set.mtu(), "verbs-bw");
    }
    static void receives_posted(Run &, const QpSet &) {} // UD has no RNR wait

    static std::string window_text(const Params &p, const QpSet &qp_set, const std::string &label,
                                   const BwWindow &w) {
        return "verbs-bw " + label + " (UD, MTU " + std::to_string(qp_set.mtu()) + "): tx_depth " +
               std::to_string(w.tx_depth) + ", cq_mod " + std::to_string(w.cq_mod) + ", rx_depth " +
               std::to_string(p.rx_depth);
    }

    static bool run_both_ways(Run &, const Params &, QpSet &, int64_t) {
        return false; // refused with qp_type = "ud" (verbs_params.cpp)
    }
};

} // namespace

void run_ud_bw(Run &run, const Params &p) {
    run_bw_over<UdBw>(run, p);
}

} // namespace cmdbench::verbs
