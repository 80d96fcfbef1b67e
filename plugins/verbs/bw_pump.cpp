// verbs-bw's sender and receiver loops (see bw_pump.hpp).
#include "bw_pump.hpp"

#include "atomics.hpp"
#include "bw_window.hpp"
#include "cq_wait.hpp"

#include <algorithm>

namespace verbs {
namespace {

constexpr int kBatch = 32;

} // namespace

void pump(Run &run, const Params &p, size_t size, std::vector<SendState> &qps, uint64_t count,
          uint64_t until_ns, std::vector<uint64_t> *received) {
    const cmdbench_host &h = run.host();
    const Stopper &stop = run.stopper();
    const ibv_wr_opcode opcode = is_atomic(p.op)     ? atomic_opcode(p.op)
                                 : p.op == Op::Send  ? IBV_WR_SEND
                                 : p.op == Op::Write ? IBV_WR_RDMA_WRITE
                                                     : IBV_WR_RDMA_READ;
    const BwWindow window = bw_window(p.tx_depth, p.cq_mod, int64_t(size), until_ns ? 0 : count);
    const uint64_t cq_mod = window.cq_mod, depth = window.tx_depth;
    std::vector<Conn *> conns;
    for (SendState &s : qps) {
        s.posted = s.completed = 0;
        s.target = until_ns ? kUnknown : count;
        conns.push_back(s.conn);
    }
    bool closing = until_ns == 0;
    ibv_wc wc[kBatch];
    for (unsigned loops = 0;; ++loops) {
        if (!closing && h.now_ns() >= until_ns) {
            closing = true;
            // A window drained to a signalled request at this instant is
            // already complete: no completion will come to end it.
            for (SendState &s : qps) {
                s.target = (s.posted + cq_mod - 1) / cq_mod * cq_mod;
                if (s.completed == s.target) s.end_ns = h.now_ns();
            }
        }
        bool progress = false, all_done = true;
        for (SendState &s : qps) {
            while (s.posted < s.target && s.posted - s.completed < depth) {
                const uint64_t k = s.posted + 1;
                s.conn->post(opcode, uint32_t(size), k % cq_mod == 0 || k == s.target, k);
                s.posted = k;
                progress = true;
            }
            // A receiving side polls even with nothing of its own in flight:
            // the peer's SENDs need their receives reposted.
            if (s.completed < s.posted || received) {
                const int n = poll_cq(*s.conn, wc, kBatch, "verbs-bw sender");
                const uint64_t before = s.completed;
                for (int i = 0; i < n; ++i) {
                    if (received && (wc[i].opcode & IBV_WC_RECV)) {
                        ++(*received)[s.conn->index()];
                        s.conn->post_recv(0);
                        continue;
                    }
                    s.completed = std::max<uint64_t>(s.completed, wc[i].wr_id);
                }
                if (s.completed != before && s.completed == s.target) s.end_ns = h.now_ns();
                progress = progress || n > 0;
            }
            all_done = all_done && s.completed == s.target;
        }
        if (all_done) return;
        if ((loops & 0xfff) == 0xfff) stop.check("verbs-bw sender");
        if (!progress && p.mode == WaitMode::Event) wait_for_event(conns, stop, "verbs-bw sender");
    }
}

void receive_all(Run &run, const Params &p, const std::vector<Conn *> &conns,
                 const std::vector<std::atomic<uint64_t>> &expected, std::vector<uint64_t> &got) {
    const Stopper &stop = run.stopper();
    ibv_wc wc[kBatch];
    for (unsigned loops = 0;; ++loops) {
        bool progress = false, all_done = true;
        for (Conn *c : conns) {
            const size_t i = c->index();
            if (got[i] < expected[i].load()) {
                const int n = poll_cq(*c, wc, kBatch, "verbs-bw receiver");
                for (int j = 0; j < n; ++j) {
                    if (!(wc[j].opcode & IBV_WC_RECV)) continue;
                    ++got[i];
                    c->post_recv(0);
                }
                progress = progress || n > 0;
            }
            all_done = all_done && got[i] >= expected[i].load();
        }
        if (all_done) return;
        if ((loops & 0xfff) == 0xfff) stop.check("verbs-bw receiver");
        if (!progress && p.mode == WaitMode::Event)
            wait_for_event(conns, stop, "verbs-bw receiver");
    }
}

std::vector<uint8_t> encode_counts(const std::vector<uint64_t> &counts) {
    std::vector<uint8_t> out;
    for (uint64_t v : counts)
        for (int i = 7; i >= 0; --i)
            out.push_back(uint8_t(v >> (8 * i)));
    return out;
}

std::vector<uint64_t> decode_counts(const std::vector<uint8_t> &bytes, size_t qps) {
    if (bytes.size() != 8 * qps) fail("verbs-bw: the peer's message counts are malformed");
    std::vector<uint64_t> out(qps, 0);
    for (size_t q = 0; q < qps; ++q)
        for (int i = 0; i < 8; ++i)
            out[q] = out[q] << 8 | bytes[8 * q + size_t(i)];
    return out;
}

} // namespace verbs
