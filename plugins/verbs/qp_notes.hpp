// What a run says about the QPs it got, beyond its parameters: the inline
// size and why (the default depends on the device), in the client's log;
// and the connection's facts (device, port, GID, path MTU, QP numbers) as
// run settings for the header and the results (run/run_settings.hpp has
// the depths and windows).
#ifndef CMDBENCH_VERBS_QP_NOTES_HPP
#define CMDBENCH_VERBS_QP_NOTES_HPP

#include "qp/link_spec.hpp"
#include "qp/qp_resources.hpp"
#include "verbs_params.hpp"

#include <cmdbench/rdma-util/device_checks.hpp>
#include <string>

namespace cmdbench::verbs {

struct InlineNote {
    std::string device;       // the device of the first QP
    uint32_t inline_size = 0; // messages up to this many bytes go inline
    bool inline_explicit = false;
    // inline_size = -1 on a device perftest gives no inline data by default
    bool inline_off_by_device = false;
};

// "inline data up to 0 bytes (inline_size = -1 on rxe0: ...)".
std::string inline_text(const InlineNote &s);

// Records the facts as run settings (connect, device, port, link_layer,
// gid_index, gid, path_mtu, sl, traffic_class, qpn: "local->remote" per
// QP, with PSNs).
void record_link_facts(const Run &run, const LinkFacts &facts);

// The inline size of `conns` (a QP set's QPs, all made alike) and why,
// logged by the client.
template <class Conns>
InlineNote note_inline(Run &run, const Params &p, const Conns &conns, const char *test) {
    InlineNote s;
    if (conns.empty()) return s;
    const QpResources &first = *conns.front();
    s.device = ibv_get_device_name(first.context()->device);
    s.inline_size = first.inline_max();
    s.inline_explicit = p.inline_explicit;
    s.inline_off_by_device =
        !p.inline_explicit && !cmdbench::rdma::inline_by_default(first.context());
    if (run.is_client()) run.log(CMDBENCH_LOG_INFO, std::string(test) + ": " + inline_text(s));
    return s;
}

// Both: what a runner calls once its QPs are connected.
template <class QpSet>
void note_qps(Run &run, const Params &p, const QpSet &qp_set, const char *test) {
    note_inline(run, p, qp_set.conns(), test);
    record_link_facts(run, qp_set.facts());
}

} // namespace cmdbench::verbs

#endif
