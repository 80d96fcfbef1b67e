// The data movers of verbs-bw: the windowed sender (tx_depth outstanding,
// one signalled request every cq_mod) and the receiver of op = send, plus
// the per-QP message counts the peers swap so that a receiver knows when it
// got everything.
#ifndef CMDBENCH_VERBS_BW_PUMP_HPP
#define CMDBENCH_VERBS_BW_PUMP_HPP

#include "bw/bw_sender.hpp"
#include "qp/conn.hpp"

#include <atomic>
#include <cstdint>
#include <vector>

namespace verbs {

using SendState = WindowState<Conn>;

// pump_window (bw_sender.hpp) over RC QPs, posting p.op. `received`, when
// given (a side that also receives SENDs on these QPs), counts each receive
// completion by QP index and reposts the receive.
void pump(Run &run, const Params &p, size_t size, std::vector<SendState> &qps, uint64_t count,
          uint64_t until_ns, std::vector<uint64_t> *received = nullptr);

// op = send: reposts each receive as it completes, counting into `got` (by
// QP index) until every QP of `conns` got what `expected` says the peer sent.
void receive_all(Run &run, const Params &p, const std::vector<Conn *> &conns,
                 const std::vector<std::atomic<uint64_t>> &expected, std::vector<uint64_t> &got);

std::vector<uint8_t> encode_counts(const std::vector<uint64_t> &counts);
std::vector<uint64_t> decode_counts(const std::vector<uint8_t> &bytes, size_t qps);

} // namespace verbs

#endif
