// verbs-bw's receiver of SENDs, one loop for RC and UD QPs alike: each
// receive reposted as it completes and counted (by QP index) until every QP
// got what the peer says it sent. UD may drop messages: with `quiet_ns` the
// loop also ends once all counts are known and nothing arrived for that long.
#ifndef CMDBENCH_VERBS_BW_RECEIVER_HPP
#define CMDBENCH_VERBS_BW_RECEIVER_HPP

#include "bw/bw_sender.hpp"

#include <atomic>
#include <cstdint>
#include <vector>

namespace cmdbench::verbs {

// `expected` holds kUnknown for a QP until the peer's count came (another
// thread stores it).
template <class QP>
void receive_all(Run &run, const Params &p, const std::vector<QP *> &conns,
                 const std::vector<std::atomic<uint64_t>> &expected, std::vector<uint64_t> &got,
                 const char *what, uint64_t quiet_ns = 0) {
    constexpr int kBatch = 32;
    const cmdbench_host &h = run.host();
    const Stopper &stop = run.stopper();
    ibv_wc wc[kBatch];
    uint64_t last_news = quiet_ns ? h.now_ns() : 0;
    bool known = false;
    for (unsigned loops = 0;; ++loops) {
        bool progress = false, all_done = true, all_known = true;
        for (QP *c : conns) {
            const size_t i = c->index();
            const uint64_t want = expected[i].load();
            if (got[i] < want) {
                const int n = poll_cq(*c, wc, kBatch, what);
                for (int j = 0; j < n; ++j) {
                    if (!(wc[j].opcode & IBV_WC_RECV)) continue;
                    ++got[i];
                    c->post_recv(0);
                }
                progress = progress || n > 0;
            }
            all_done = all_done && got[i] >= want;
            all_known = all_known && want != kUnknown;
        }
        if (all_done) return;
        if (quiet_ns) {
            if (progress || (all_known && !known)) last_news = h.now_ns();
            known = all_known;
            if (known && h.now_ns() - last_news > quiet_ns) return; // the rest was dropped
        }
        if ((loops & 0xfff) == 0xfff) stop.check(what);
        if (!progress && p.mode == WaitMode::Event) wait_for_event(conns, stop, what);
    }
}

} // namespace cmdbench::verbs

#endif
