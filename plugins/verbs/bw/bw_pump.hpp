// verbs-bw's senders over RC and UD QPs (the windowed sender, bw_sender.hpp,
// with how each kind posts), plus the per-QP message counts the peers swap
// so that a receiver knows when it got everything.
#ifndef CMDBENCH_VERBS_BW_PUMP_HPP
#define CMDBENCH_VERBS_BW_PUMP_HPP

#include "bw/bw_sender.hpp"
#include "qp/conn.hpp"
#include "qp/ud_conn.hpp"

#include <cstdint>
#include <vector>

namespace cmdbench::verbs {

using SendState = WindowState<Conn>;
using UdSendState = WindowState<UdConn>;

// pump_window (bw_sender.hpp) over RC QPs, posting p.op. `received`, when
// given (a side that also receives SENDs on these QPs), counts each receive
// completion by QP index and reposts the receive.
void pump(Run &run, const Params &p, size_t size, std::vector<SendState> &qps, uint64_t count,
          uint64_t until_ns, std::vector<uint64_t> *received = nullptr);

// The same over UD QPs: SEND only, and no receive completions (the client
// posts none). A SEND that completed may still be dropped by the receiver.
void pump(Run &run, const Params &p, size_t size, std::vector<UdSendState> &qps, uint64_t count,
          uint64_t until_ns);

std::vector<uint8_t> encode_counts(const std::vector<uint64_t> &counts);
std::vector<uint64_t> decode_counts(const std::vector<uint8_t> &bytes, size_t qps);

} // namespace cmdbench::verbs

#endif
