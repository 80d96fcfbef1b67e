// verbs-bw's sender and receiver loops (see bw_pump.hpp).
#include "bw/bw_pump.hpp"

#include "atomics.hpp"
#include "qp/cq_wait.hpp"

namespace verbs {
namespace {

constexpr int kBatch = 32;

} // namespace

void pump(Run &run, const Params &p, size_t size, std::vector<SendState> &qps, uint64_t count,
          uint64_t until_ns, std::vector<uint64_t> *received) {
    const ibv_wr_opcode opcode = is_atomic(p.op)     ? atomic_opcode(p.op)
                                 : p.op == Op::Send  ? IBV_WR_SEND
                                 : p.op == Op::Write ? IBV_WR_RDMA_WRITE
                                                     : IBV_WR_RDMA_READ;
    pump_window(
        run, p, size, qps, count, until_ns, "verbs-bw sender", received != nullptr,
        [&](Conn &c, uint64_t k, bool signaled) { c.post(opcode, uint32_t(size), signaled, k); },
        [&](Conn &c, const ibv_wc &wc) {
            if (!received || !(wc.opcode & IBV_WC_RECV)) return false;
            ++(*received)[c.index()];
            c.post_recv(0);
            return true;
        });
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
