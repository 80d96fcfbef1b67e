// Test "verbs-bw" over RC QPs: windowed bandwidth (perftest's ib_send_bw,
// ib_write_bw, ib_read_bw, measured at the sender as with -R). The client
// keeps up to tx_depth work requests outstanding per QP and asks for a
// completion every cq_mod of them (CQ moderation); for send the server keeps
// rx_depth receives posted and counts arrivals until the client tells it how
// many were sent; write, read and the atomics (fetch_add, cmp_swap on an
// 8-byte target) are one-sided (the server stays passive). RC delivers every
// message, so the server sends no arrival counts back. UC QPs run the same
// (send and write), but UC SENDs are counted as UD's are.
// With bidirectional = true both sides do all of that at once
// (verbs_bw_bidir.cpp).
#include "bw/bw_runner.hpp"
#include "bw/verbs_bw_bidir.hpp"

namespace cmdbench::verbs {
namespace {

struct RcBw {
    using QpSet = RcQpSet;
    static constexpr const char *kCounts = "verbs-bw message counts";
    static constexpr const char *kArrivals = nullptr;
    static constexpr const char *kReceiver = "verbs-bw receiver";
    static constexpr uint64_t kQuietNs = 0;

    static void adjust(Params &) {}
    static int recv_depth(const Params &p, bool) { return p.op == Op::Send ? p.rx_depth : 1; }
    static std::vector<int64_t> sizes(const Params &p, const RcQpSet &) { return p.sizes; }

    static void receives_posted(Run &run, const RcQpSet &qp_set) {
        int found = 0;
        for (const auto &c : qp_set.conns()) {
            // One QP that refused is enough for the warning.
            const int was = c->shorten_rnr_wait();
            if (found >= 0) found = was;
        }
        run.log(found < 0 ? CMDBENCH_LOG_WARN : CMDBENCH_LOG_DEBUG,
                found < 0 ? "verbs-bw: the QP keeps its RNR wait (min_rnr_timer not changed)"
                          : "verbs-bw: RNR wait 0.64 ms (was min_rnr_timer " +
                                std::to_string(found) + ")");
    }

    static std::string window_text(const Params &, const RcQpSet &, const std::string &label,
                                   const BwWindow &w) {
        return "verbs-bw " + label + ": tx_depth " + std::to_string(w.tx_depth) + ", cq_mod " +
               std::to_string(w.cq_mod) + (w.cq_mod_auto ? " (by message size)" : "");
    }

    static bool run_both_ways(Run &run, const Params &p, RcQpSet &qp_set, int64_t size) {
        if (!p.bidirectional) return false;
        both_ways(run, p, qp_set, size);
        return true;
    }
};

// UC SEND: what finds no receive posted is dropped (UC has no RNR), so the
// server counts arrivals as UD's does and the row says what was `lost`.
struct UcSendBw : RcBw {
    static constexpr const char *kCounts = "verbs-bw UC message counts";
    static constexpr const char *kArrivals = "verbs-bw UC arrivals";
    static constexpr const char *kReceiver = "verbs-bw UC receiver";
    static constexpr uint64_t kQuietNs = 1'000'000'000;

    static void adjust(Params &p) { receives_for_every_message(p); }
    static void receives_posted(Run &, const RcQpSet &) {} // UC has no RNR wait
};

} // namespace

void run_rc_bw(Run &run, const Params &p) {
    run_bw_over<RcBw>(run, p);
}

void run_uc_send_bw(Run &run, const Params &p) {
    run_bw_over<UcSendBw>(run, p);
}

} // namespace cmdbench::verbs
