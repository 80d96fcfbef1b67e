// verbs-bw with bidirectional = true (perftest's -b).
#ifndef CMDBENCH_VERBS_BW_BIDIR_HPP
#define CMDBENCH_VERBS_BW_BIDIR_HPP

#include "qp/rc_qp_set.hpp"
#include "verbs_params.hpp"

namespace cmdbench::verbs {

// One size, both roles: each side sends (read: reads the peer's buffer) on
// every QP while it receives the peer's SENDs; then the client reports rows
// "<size> c2s", "<size> s2c" and "<size> bidir".
void both_ways(Run &run, const Params &p, RcQpSet &qp_set, int64_t size);

} // namespace cmdbench::verbs

#endif
