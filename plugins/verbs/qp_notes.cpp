// What a run says about its QPs (see qp_notes.hpp).
#include "qp_notes.hpp"

namespace cmdbench::verbs {
namespace {

// A setting's value is at most 256 bytes: the first QPs, then how many more.
constexpr size_t kQpnTextCap = 200;

std::string qpn_text(const std::vector<QpFacts> &qps) {
    std::string out;
    for (size_t i = 0; i < qps.size(); ++i) {
        const QpFacts &q = qps[i];
        std::string one = std::to_string(q.local_qpn) + "->" + std::to_string(q.remote_qpn) +
                          " (psn " + std::to_string(q.local_psn) + "->" +
                          std::to_string(q.remote_psn) + ")";
        if (out.size() + one.size() > kQpnTextCap) {
            out += " +" + std::to_string(qps.size() - i) + " more QPs";
            break;
        }
        out += (out.empty() ? "" : ", ") + one;
    }
    return out;
}

} // namespace

std::string inline_text(const InlineNote &s) {
    const std::string size = "inline data up to " + std::to_string(s.inline_size) + " bytes";
    if (s.inline_explicit) return size + " (inline_size as set) on " + s.device;
    if (s.inline_off_by_device)
        return size + " (inline_size = -1 on " + s.device +
               ": perftest uses no inline data on a device it does not recognize)";
    return size + " (inline_size = -1: perftest's default, as " + s.device + " accepts it)";
}

void record_link_facts(const Run &run, const LinkFacts &f) {
    if (f.device.empty()) return; // no QPs
    run.setting("connect", f.connect);
    run.setting("device", f.device);
    run.setting("ib_port", int64_t(f.port));
    if (!f.link_layer.empty()) run.setting("link_layer", f.link_layer);
    run.setting("gid_index", f.gid_index < 0 ? std::string("none") : std::to_string(f.gid_index));
    if (!f.gid.empty()) run.setting("gid", f.gid);
    if (f.path_mtu) run.setting("path_mtu", int64_t(f.path_mtu));
    run.setting("sl", int64_t(f.sl));
    run.setting("traffic_class", int64_t(f.traffic_class));
    if (!f.qps.empty()) run.setting("qpn", qpn_text(f.qps));
}

} // namespace cmdbench::verbs
