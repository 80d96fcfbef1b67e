// The classification of counter names (run_counters.hpp, docs/counters.md):
// the names the kernel gives, from rxe, mlx5 and the IB port counters, the
// interface statistics and the TCP MIBs. A name not in the table is
// classed by its words.
#include "cmdbench/report/run_counters.hpp"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace cmdbench {
namespace {

using K = CounterClass;

// Names whose words would mislead: a sequence error or a retry is what makes
// a transport send again, a failed retransmit or an exhausted retry is an
// error, resets are how connections end.
const std::unordered_map<std::string, CounterClass> &exact_names() {
    static const std::unordered_map<std::string, CounterClass> names = {
        // rxe
        {"completer_retry_err", K::Retransmits},
        {"duplicate_request", K::Retransmits},
        {"out_of_seq_request", K::Retransmits},
        {"rcvd_seq_err", K::Retransmits},
        {"rcvd_rnr_err", K::Congestion},
        {"send_rnr_err", K::Congestion},
        {"ack_deferred", K::Other},
        {"rdma_sends", K::Traffic},
        {"rdma_recvs", K::Traffic},
        // mlx5
        {"local_ack_timeout_err", K::Retransmits},
        {"packet_seq_err", K::Retransmits},
        {"implied_nak_seq_err", K::Retransmits},
        {"out_of_sequence", K::Retransmits},
        {"rnr_nak_retry_err", K::Errors},
        {"out_of_buffer", K::Errors},
        {"roce_slow_restart", K::Congestion},
        {"roce_slow_restart_cnps", K::Congestion},
        {"roce_slow_restart_trans", K::Congestion},
        {"roce_adp_retrans", K::Retransmits},
        {"roce_adp_retrans_to", K::Retransmits},
        // IB port counters
        {"link_downed", K::Errors},
        {"link_error_recovery", K::Errors},
        {"symbol_error", K::Errors},
        {"VL15_dropped", K::Errors},
        {"port_xmit_wait", K::Congestion},
        // interface statistics
        {"collisions", K::Errors},
        {"multicast", K::Traffic},
        // TCP (Tcp: and TcpExt:)
        {"InSegs", K::Traffic},
        {"OutSegs", K::Traffic},
        {"RetransSegs", K::Retransmits},
        {"TCPTimeouts", K::Retransmits},
        {"TCPLostRetransmit", K::Retransmits},
        {"TCPRetransFail", K::Errors},
        {"InErrs", K::Errors},
        {"InCsumErrors", K::Errors},
        {"OutRsts", K::Other},
        {"EstabResets", K::Other},
        {"AttemptFails", K::Other},
        {"TCPAbortOnTimeout", K::Errors},
    };
    return names;
}

bool has(const std::string &lower, const char *word) {
    return lower.find(word) != std::string::npos;
}

} // namespace

const char *to_string(CounterClass c) {
    switch (c) {
    case K::Traffic:
        return "traffic";
    case K::Retransmits:
        return "retransmits";
    case K::Errors:
        return "errors";
    case K::Congestion:
        return "congestion";
    case K::Other:
        return "other";
    }
    return "other";
}

CounterClass counter_class(const std::string &name) {
    const auto &exact = exact_names();
    if (const auto it = exact.find(name); it != exact.end()) return it->second;
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (has(lower, "retrans")) return K::Retransmits;
    if (has(lower, "cnp") || has(lower, "ecn") || has(lower, "congest")) return K::Congestion;
    if (has(lower, "err") || has(lower, "drop") || has(lower, "discard") || has(lower, "overrun") ||
        has(lower, "overflow"))
        return K::Errors;
    if (has(lower, "bytes") || has(lower, "packets") || has(lower, "pkts") || has(lower, "_data"))
        return K::Traffic;
    return K::Other;
}

bool is_counter_expectation(const std::string &key) {
    return key == "retransmits" || key == "counter_errors";
}

CounterClass counter_expectation_class(const std::string &key) {
    return key == "retransmits" ? K::Retransmits : K::Errors;
}

} // namespace cmdbench
