// verbs-lat's entry: parameters, then the run over RC or UD QPs.
#include "lat/lat_runner.hpp"

namespace cmdbench::verbs {

ConnSpec lat_spec(const Params &p) {
    ConnSpec spec;
    spec.region = p.region();
    // A READ or atomic is one work request in flight, waited for: the
    // smallest queues, as perftest's (docs/verbs.md, "Queue sizes").
    const bool one_at_a_time = is_one_sided(p.op);
    spec.send_depth = one_at_a_time ? 1 : kLatSendDepth;
    spec.recv_depth = p.op == Op::Send ? kLatRecvDepth : 1;
    if (one_at_a_time) spec.cq_depth = 1;
    spec.inline_size = p.inline_size;
    spec.inline_explicit = p.inline_explicit;
    spec.rdma_read = one_at_a_time;
    spec.atomics = is_atomic(p.op);
    spec.type = p.connected_type();
    return spec;
}

void run_lat(Run &run) {
    const Params p = read_params(run, false);
    if (p.qp_type == QpType::Ud)
        run_ud_lat(run, p);
    else
        run_rc_lat(run, p);
}

} // namespace cmdbench::verbs
