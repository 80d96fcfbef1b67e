// Option values: ranges as perftest's own parser states them where cmdbench
// can take the whole range, else cmdbench's (said in the message).
#include "perftest_values.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>

namespace cmdbench::perftest_frontend {
namespace {

int64_t integer(const std::string &name, const std::string &text, int64_t lo, int64_t hi) {
    errno = 0;
    char *end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || end == text.c_str() || *end != '\0' || v < lo || v > hi)
        throw UsageError(name + " must be an integer in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "], got '" + text + "'");
    return v;
}

std::string one_of(const std::string &name, const std::string &text,
                   const std::vector<std::string> &allowed) {
    std::string list;
    for (const std::string &a : allowed) {
        if (text == a) return a;
        list += (list.empty() ? "" : ", ") + a;
    }
    throw UsageError(name + " must be one of " + list + ", got '" + text + "'");
}

// The -c values cmdbench runs for this tool (RC everywhere; UC for SEND and
// WRITE; UD for SEND), as the tool's --help lists them.
std::vector<std::string> connections(const Tool &t) {
    std::vector<std::string> c = {"RC"};
    if (t.op[0] == 's' || t.op[0] == 'w') c.push_back("UC");
    if (t.op[0] == 's') c.push_back("UD");
    return c;
}

using Setter = std::function<void(Options &, const std::string &, const std::string &)>;

const std::map<std::string, Setter> &setters() {
    static const std::map<std::string, Setter> m = {
        {"all", [](Options &o, auto &, auto &) { o.sizes = all_sizes(); }},
        {"atomic_type",
         [](Options &o, auto &n, auto &v) {
             o.atomic_type = one_of(n, v, {"FETCH_AND_ADD", "CMP_AND_SWAP"});
         }},
        {"bidirectional", [](Options &o, auto &, auto &) { o.bidirectional = true; }},
        {"connection",
         [](Options &o, auto &n, auto &v) { o.connection = one_of(n, v, connections(*o.tool)); }},
        {"ib-dev", [](Options &o, auto &, auto &v) { o.device = v; }},
        {"duration",
         [](Options &o, auto &n, auto &v) { o.duration = double(integer(n, v, 1, 3600)); }},
        {"events", [](Options &o, auto &, auto &) { o.events = true; }},
        // perftest's -F silences its warning that the cycle counter may run
        // at a varying CPU frequency; cmdbench reads the system clock and
        // has no such warning, so what -F asks for already holds.
        {"CPU-freq", [](Options &, auto &, auto &) {}},
        {"help", [](Options &o, auto &, auto &) { o.help = true; }},
        {"ib-port", [](Options &o, auto &n, auto &v) { o.ib_port = integer(n, v, 1, 255); }},
        {"inline_size",
         [](Options &o, auto &n, auto &v) { o.inline_size = integer(n, v, 0, 4096); }},
        {"post_list", [](Options &o, auto &n, auto &v) { o.post_list = integer(n, v, 1, 15000); }},
        {"mtu",
         [](Options &o, auto &n, auto &v) {
             o.mtu = std::stoll(one_of(n, v, {"256", "512", "1024", "2048", "4096"}));
         }},
        {"iters", [](Options &o, auto &n, auto &v) { o.iterations = integer(n, v, 5, 100000000); }},
        {"noPeak", [](Options &o, auto &, auto &) { o.no_peak = true; }},
        {"port", [](Options &o, auto &n, auto &v) { o.port = int(integer(n, v, 1, 65535)); }},
        {"qp", [](Options &o, auto &n, auto &v) { o.qps = integer(n, v, 1, 1024); }},
        {"cq-mod", [](Options &o, auto &n, auto &v) { o.cq_mod = integer(n, v, 1, 1024); }},
        {"rx-depth", [](Options &o, auto &n, auto &v) { o.rx_depth = integer(n, v, 1, 16384); }},
        {"rdma_cm", [](Options &o, auto &, auto &) { o.rdma_cm = true; }},
        {"size",
         [](Options &o, auto &n, auto &v) { o.sizes = {integer(n, v, 1, int64_t{1} << 30)}; }},
        {"sl", [](Options &o, auto &n, auto &v) { o.sl = integer(n, v, 0, 15); }},
        {"tx-depth", [](Options &o, auto &n, auto &v) { o.tx_depth = integer(n, v, 1, 15000); }},
        {"version", [](Options &o, auto &, auto &) { o.version = true; }},
        {"gid-index", [](Options &o, auto &n, auto &v) { o.gid_index = integer(n, v, 0, 255); }},
        {"output",
         [](Options &o, auto &n, auto &v) {
             o.output = one_of(n, v, {"bandwidth", "message_rate", "latency"});
         }},
        {"report_gbits", [](Options &o, auto &, auto &) { o.report_gbits = true; }},
        {"run_infinitely", [](Options &o, auto &, auto &) { o.run_infinitely = true; }},
        {"source_ip", [](Options &o, auto &, auto &v) { o.source_ip = v; }},
        {"tclass", [](Options &o, auto &n, auto &v) { o.traffic_class = integer(n, v, 0, 255); }},
    };
    return m;
}

} // namespace

std::string option_name(const OptionSpec &s) {
    std::string name = s.short_name ? std::string("-") + s.short_name + "/" : "";
    return name + "--" + s.long_name;
}

void apply_value(Options &o, const OptionSpec &s, const std::string &arg) {
    const auto it = setters().find(s.long_name);
    if (it == setters().end()) throw UsageError(option_name(s) + " is not supported");
    it->second(o, option_name(s), arg);
}

double timeout_value(const char *text) {
    errno = 0;
    char *end = nullptr;
    const double v = std::strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !std::isfinite(v) || v <= 0 || v > 86400)
        throw UsageError(std::string("--timeout must be seconds in (0, 86400], got '") + text +
                         "'");
    return v;
}

std::vector<int64_t> all_sizes() {
    std::vector<int64_t> sizes;
    for (int64_t s = 2; s <= (int64_t{1} << 23); s *= 2)
        sizes.push_back(s);
    return sizes;
}

void check_combinations(Options &o) {
    const std::string tool = o.tool->name;
    if (o.given.count("all") && o.given.count("size"))
        throw UsageError("-a/--all and -s/--size exclude each other (-a runs sizes 2 .. 2^23)");
    if (o.cq_mod > o.tx_depth)
        throw UsageError("-Q/--cq-mod must be in [1, " + std::to_string(o.tx_depth) +
                         "] (at most -t/--tx-depth), got " + std::to_string(o.cq_mod));
    if (o.post_list > o.tx_depth)
        throw UsageError("-l/--post_list must be in [1, " + std::to_string(o.tx_depth) +
                         "] (at most -t/--tx-depth), got " + std::to_string(o.post_list));
    if (o.connection == "UD" && o.bidirectional)
        throw UsageError("-b/--bidirectional is not available with -c UD");
    if (o.run_infinitely && o.duration == 0) o.duration = 5; // a window of 5 s without -D
    if (o.run_infinitely && o.given.count("all"))
        throw UsageError("--run_infinitely runs one size: -a/--all is not available with it");
    const bool latency_output = o.output == "latency";
    if (!o.output.empty() && latency_output == o.tool->bandwidth)
        throw UsageError("--output " + o.output + " is not available with " + tool + " (" +
                         (o.tool->bandwidth ? "bandwidth or message_rate" : "latency") + ")");
}

} // namespace cmdbench::perftest_frontend
