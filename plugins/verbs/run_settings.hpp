// What a run actually uses where a key's default depends on the device (the
// inline size): said in the run's log, and kept in a struct for the run's
// header.
#ifndef CMDBENCH_VERBS_RUN_SETTINGS_HPP
#define CMDBENCH_VERBS_RUN_SETTINGS_HPP

#include "qp/qp_resources.hpp"
#include "verbs_params.hpp"

#include <cmdbench/rdma-util/device_checks.hpp>
#include <string>

namespace cmdbench::verbs {

struct RunSettings {
    std::string device;       // the device of the first QP
    uint32_t inline_size = 0; // messages up to this many bytes go inline
    bool inline_explicit = false;
    // inline_size = -1 on a device perftest gives no inline data by default
    bool inline_off_by_device = false;
};

// "inline 0 bytes (inline_size = -1 on rxe0: ...)": the log line's words.
std::string settings_text(const RunSettings &s);

// The settings of `conns` (a QP set's QPs, all made alike), logged by the
// client as the run's note.
template <class Conns>
RunSettings note_settings(Run &run, const Params &p, const Conns &conns, const char *test) {
    RunSettings s;
    if (conns.empty()) return s;
    const QpResources &first = *conns.front();
    s.device = ibv_get_device_name(first.id()->verbs->device);
    s.inline_size = first.inline_max();
    s.inline_explicit = p.inline_explicit;
    s.inline_off_by_device =
        !p.inline_explicit && !cmdbench::rdma::inline_by_default(first.id()->verbs);
    if (run.is_client()) run.log(CMDBENCH_LOG_INFO, std::string(test) + ": " + settings_text(s));
    return s;
}

} // namespace cmdbench::verbs

#endif
