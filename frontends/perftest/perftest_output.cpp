// perftest's layout (captured from perftest 4.5 in the lab; docs/perftest.md
// shows both side by side).
#include "perftest_output.hpp"

#include <cstdio>

namespace cmdbench::perftest_frontend {
namespace {

const char *title_op(const Options &o) {
    const std::string op = o.tool->op;
    if (op == "send") return "Send";
    if (op == "write") return "RDMA_Write";
    if (op == "read") return "RDMA_Read";
    return o.atomic_type == "CMP_AND_SWAP" ? "Atomic CMP_AND_SWAP" : "Atomic FETCH_AND_ADD";
}

std::string line(const char *fmt, const std::string &a, const std::string &b = "") {
    char buf[256];
    std::snprintf(buf, sizeof buf, fmt, a.c_str(), b.c_str());
    return buf;
}

std::string convention(const Options &o) {
    if (o.tool->bandwidth)
        return std::string(o.no_peak ? " BW peak         : not measured (-N: 0.00, as perftest's)\n"
                                     : " BW peak         : the best rate over spans of one window "
                                       "of messages per QP, summed over QPs\n") +
               (o.report_gbits
                    ? ""
                    : " BW unit         : MB/sec = 2^20 bytes per second (perftest's)\n");
    if (o.tool->halved())
        return " Latency         : one way = half the round trip (as perftest's " +
               std::string(o.tool->name) + ")\n";
    return " Latency         : the whole round trip of one " +
           std::string(o.tool->atomic() ? "atomic" : "READ") + " (as perftest's " + o.tool->name +
           ")\n";
}

std::string depth_lines(const Options &o, bool server) {
    std::string out;
    if (o.tool->bandwidth && !server)
        out += line(" TX depth        : %s\n", std::to_string(o.tx_depth));
    if (o.tool->bandwidth && !server)
        out += line(" CQ Moderation   : %s\n",
                    o.cq_mod ? std::to_string(o.cq_mod) : "100, 1 above 8192 B (perftest's rule)");
    if (o.tool->op[0] == 's' && server)
        out += line(" RX depth        : %s\n", std::to_string(o.rx_depth));
    if (o.tool->bandwidth && o.post_list > 1)
        out += line(" Post List       : %s\n", std::to_string(o.post_list));
    return out;
}

std::string optional_us(const std::optional<uint64_t> &ns, double scale) {
    char buf[32];
    if (!ns) return "-";
    std::snprintf(buf, sizeof buf, "%.2f", double(*ns) * scale / 1000.0);
    return buf;
}

double metric(const Row &row, const char *key) {
    const Metric *m = find_metric(row, key);
    return m ? m->value : 0;
}

std::string lat_line(const Options &o, const Row &row) {
    const HistMetric *h = find_hist(row, "rtt");
    if (!h) return {};
    const HistSummary &s = h->summary;
    const double k = o.tool->halved() ? 0.5 : 1.0; // perftest's convention
    if (o.output == "latency") return optional_us(std::optional<uint64_t>(uint64_t(s.mean)), k);
    char buf[512];
    std::snprintf(
        buf, sizeof buf,
        " %-7.0f %-13.0f %-14.2f %-13.2f %-8s \t       %-11.2f \t%-7.2f \t\t%-8s \t\t%-8s "
        "\t%-10s %-10s",
        metric(row, "bytes"), double(s.count), double(s.min) * k / 1000, double(s.max) * k / 1000,
        optional_us(s.p50, k).c_str(), s.mean * k / 1000, s.stddev * k / 1000,
        optional_us(s.p99, k).c_str(), optional_us(s.p999, k).c_str(),
        optional_us(s.p90, k).c_str(), optional_us(s.p9999, k).c_str());
    return buf;
}

std::string bw_line(const Options &o, const Row &row) {
    const std::string &n = row.name;
    const auto ends = [&](const char *s) {
        const std::string t = s;
        return n.size() >= t.size() && n.compare(n.size() - t.size(), t.size(), t) == 0;
    };
    if (ends(" c2s") || ends(" s2c")) return {};
    const double time = metric(row, "time"), total = metric(row, "total");
    const double xfers = metric(row, "xfers"), qps = std::max(1.0, metric(row, "qps"));
    const double rate = time > 0 ? total / time : 0; // bytes per second
    const double mpps = time > 0 ? xfers / time / 1e6 : 0;
    const double bw = o.report_gbits ? rate * 8 / 1e9 : rate / (1024.0 * 1024.0);
    // The plugin's peak is in Gb/s (10^9 bits): the same unit as bw.
    const double peak_gbps = o.no_peak ? 0 : metric(row, "peak Gb/sec");
    const double peak = o.report_gbits ? peak_gbps : peak_gbps * 1e9 / 8 / (1024.0 * 1024.0);
    char buf[256];
    if (o.output == "bandwidth")
        std::snprintf(buf, sizeof buf, "%.2f", bw);
    else if (o.output == "message_rate")
        std::snprintf(buf, sizeof buf, "%.6f", mpps);
    else
        std::snprintf(buf, sizeof buf, " %-10.0f %-10.0f     %7.2f            %7.2f  \t\t   %.6f",
                      metric(row, "bytes"), xfers / qps, peak, bw, mpps);
    return buf;
}

} // namespace

std::string setting(const RunSettings &settings, const std::string &key) {
    for (const auto &[k, v] : settings)
        if (k == key) return v;
    return {};
}

const char *rule() {
    return "--------------------------------------------------------------------------------------"
           "-";
}

std::string header_block(const Options &o, bool server, const RunSettings &got) {
    // What the run got (the client's settings) where known, else what was asked.
    const auto or_asked = [&](const char *key, const std::string &suffix, std::string asked) {
        const std::string v = setting(got, key);
        return v.empty() ? asked : v + suffix;
    };
    std::string out = std::string(rule()) + "\n";
    out +=
        line("                    %s %s Test\n", title_op(o), o.tool->bandwidth ? "BW" : "Latency");
    out +=
        line(" Dual-port       : OFF\t\tDevice         : %s\n",
             or_asked("device", "", o.device.empty() ? "(chosen by the verbs plugin)" : o.device));
    out += line(" Number of qps   : %s\t\tTransport type : IB\n", std::to_string(o.qps));
    out += line(" Connection type : %s\t\tUsing SRQ      : OFF\n", o.connection);
    out += depth_lines(o, server);
    out += line(" Mtu             : %s\n",
                or_asked("path_mtu", "[B]",
                         o.mtu ? std::to_string(o.mtu) + "[B]" : "the port's active MTU"));
    if (!setting(got, "link_layer").empty())
        out += line(" Link type       : %s\n", setting(got, "link_layer"));
    out += line(" GID index       : %s\n",
                or_asked("gid_index", "", o.gid_index >= 0 ? std::to_string(o.gid_index) : "auto"));
    if (!o.tool->atomic() && o.tool->op[0] != 'r')
        out += line(" Max inline data : %s\n",
                    or_asked("inline_size", "[B]",
                             o.inline_size >= 0 ? std::to_string(o.inline_size) + "[B]"
                                                : "the tool's default, as the QP allows"));
    out += line(" rdma_cm QPs\t : %s\n", o.rdma_cm ? "ON" : "OFF");
    out += line(" Data ex. method : %s\n", o.rdma_cm ? "rdma_cm" : "Ethernet");
    out += convention(o);
    out += rule() + std::string("\n");
    // perftest's local/remote address lines, as cmdbench records them.
    if (!setting(got, "gid").empty()) out += line(" GID             : %s\n", setting(got, "gid"));
    if (!setting(got, "qpn").empty())
        out += line(" QPN local->remote (PSN local->remote): %s\n", setting(got, "qpn")) + rule() +
               "\n";
    return out;
}

std::string column_line(const Options &o) {
    if (!o.output.empty()) return {};
    if (o.tool->bandwidth)
        return o.report_gbits ? " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]  "
                                " MsgRate[Mpps]"
                              : " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]  "
                                " MsgRate[Mpps]";
    return " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
           "t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \tp90[usec] p99.99[usec]";
}

std::string row_line(const Options &o, const Row &row) {
    return o.tool->bandwidth ? bw_line(o, row) : lat_line(o, row);
}

} // namespace cmdbench::perftest_frontend
