// verbs-bw's senders over RC and UD QPs and the counts' codec (see bw_pump.hpp).
#include "bw/bw_pump.hpp"

#include "atomics.hpp"

namespace cmdbench::verbs {

void pump(Run &run, const Params &p, size_t size, std::vector<SendState> &qps, uint64_t count,
          uint64_t until_ns, std::vector<uint64_t> *received) {
    const ibv_wr_opcode opcode = is_atomic(p.op)     ? atomic_opcode(p.op)
                                 : p.op == Op::Send  ? IBV_WR_SEND
                                 : p.op == Op::Write ? IBV_WR_RDMA_WRITE
                                                     : IBV_WR_RDMA_READ;
    // The atomics' operands: fetch_add adds kAtomicAdd, cmp_swap swaps 0 for
    // 0 (the bandwidth test checks no values).
    const uint64_t add = p.op == Op::FetchAdd ? kAtomicAdd : 0;
    const bool atomic = is_atomic(p.op);
    pump_window(
        run, p, size, qps, count, until_ns, "verbs-bw sender", received != nullptr,
        [&](Conn &c, uint64_t k, bool signaled, uint64_t n) {
            if (atomic)
                c.post_atomic(opcode, add, 0, signaled, k, n);
            else
                c.post(opcode, uint32_t(size), signaled, k, n);
        },
        [&](Conn &c, const ibv_wc &wc) {
            if (!received || !(wc.opcode & IBV_WC_RECV)) return false;
            ++(*received)[c.index()];
            c.post_recv(0);
            return true;
        });
}

void pump(Run &run, const Params &p, size_t size, std::vector<UdSendState> &qps, uint64_t count,
          uint64_t until_ns) {
    pump_window(
        run, p, size, qps, count, until_ns, "verbs-bw UD sender", false,
        [&](UdConn &c, uint64_t k, bool signaled, uint64_t n) {
            c.post_send(uint32_t(size), signaled, k, n);
        },
        [](UdConn &, const ibv_wc &) { return false; });
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

} // namespace cmdbench::verbs
