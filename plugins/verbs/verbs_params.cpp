// Parameter tables and cross-key checks of the verbs tests.
#include "verbs_params.hpp"

#include <algorithm>
#include <vector>

namespace verbs {
namespace {

constexpr int64_t kMaxSize = int64_t{1} << 30;
constexpr int64_t kMaxCount = 1000000000;
constexpr int64_t kMaxInline = 4096;
constexpr int64_t kMaxDepth = 16384;
constexpr uint32_t P = sizeof(cmdbench_param);

cmdbench_param int_param(const char *name, const char *def, int64_t lo, int64_t hi,
                         const char *help) {
    return {P, name, CMDBENCH_PARAM_INT, def, lo, hi, 0, 0, nullptr, help};
}

cmdbench_param choice_param(const char *name, const char *def, const char *choices,
                            const char *help) {
    return {P, name, CMDBENCH_PARAM_STRING, def, 0, 0, 0, 0, choices, help};
}

// The keys both tests take; sizes and iterations default to perftest's.
std::vector<cmdbench_param> common_params(const char *sizes, const char *iterations,
                                          const char *iterations_help) {
    return {
        choice_param("op", "\"send\"", "send|write|read",
                     "send: SEND/RECV; write: RDMA WRITE; read: RDMA READ (perftest's ib_send_*, "
                     "ib_write_*, ib_read_*)"),
        {P, "sizes", CMDBENCH_PARAM_INT_LIST, sizes, 1, kMaxSize, 0, 0, nullptr,
         "message sizes in bytes, one row each (perftest -s; default as perftest's)"},
        int_param("iterations", iterations, 1, kMaxCount, iterations_help),
        int_param("warmup", "0", 0, kMaxCount,
                  "untimed messages per QP before each size (perftest: none)"),
        int_param("inline_size", "-1", -1, kMaxInline,
                  "send/write: messages up to this size go inline (perftest -I); -1 = perftest's "
                  "default (236 latency, 0 bandwidth) lowered to what the QP accepts; an explicit "
                  "value the QP refuses fails the run"),
        choice_param("mode", "\"poll\"", "poll|event",
                     "poll: busy-poll the CQ; event: ibv_req_notify_cq and sleep on the "
                     "completion channel (perftest -e)"),
        int_param("qps", "1", 1, 1024, "RC QPs, each its own rdma_cm connection (perftest -q)"),
        int_param("threads", "1", 1, 256,
                  "threads per side, at most qps; QP i runs on thread i % threads (perftest: 1)"),
        {P, "bind_address", CMDBENCH_PARAM_STRING, "\"\"", 0, 0, 0, 0, nullptr,
         "address of the RDMA device to use (perftest -F/--bind_source_ip); \"\" = the server "
         "binds the address the client reached it at"},
        int_param("port", "0", 0, 65535,
                  "rdma_cm port of the server; 0 = ephemeral, announced over the control channel"),
    };
}

std::vector<cmdbench_param> make_lat_table() {
    auto t = common_params("[2]", "1000", "timed round trips per size and QP (perftest -n)");
    t.push_back({P, "verify", CMDBENCH_PARAM_BOOL, "false", 0, 0, 0, 0, nullptr,
                 "fill every message with a per-message pattern and check every byte received"});
    return t;
}

std::vector<cmdbench_param> make_bw_table() {
    auto t = common_params("[65536]", "5000", "messages per size and QP (perftest -n)");
    t.push_back({P, "duration", CMDBENCH_PARAM_DOUBLE, "0", 0, 0, 0, 3600, nullptr,
                 "seconds per size instead of iterations (perftest -D); 0 = iterations"});
    t.push_back(int_param("tx_depth", "128", 1, kMaxDepth,
                          "outstanding work requests per QP at the sender (perftest -t)"));
    t.push_back(int_param("cq_mod", "100", 1, kMaxDepth,
                          "one signalled completion every cq_mod work requests (perftest -Q); at "
                          "most tx_depth"));
    t.push_back(int_param("rx_depth", "512", 1, kMaxDepth,
                          "op = send: receives kept posted per QP at the receiver (perftest -r)"));
    return t;
}

[[noreturn]] void bad(const std::string &message) {
    fail(message);
}

} // namespace

const char *op_name(Op op) {
    switch (op) {
    case Op::Send:
        return "send";
    case Op::Write:
        return "write";
    case Op::Read:
        return "read";
    }
    return "?";
}

int64_t Params::largest_size() const {
    return *std::max_element(sizes.begin(), sizes.end());
}

const cmdbench_param *lat_params(uint32_t *count) {
    // Built on first use: the plugin's descriptor asks during static initialisation.
    static const std::vector<cmdbench_param> lat_table = make_lat_table();
    *count = uint32_t(lat_table.size());
    return lat_table.data();
}

const cmdbench_param *bw_params(uint32_t *count) {
    static const std::vector<cmdbench_param> bw_table = make_bw_table();
    *count = uint32_t(bw_table.size());
    return bw_table.data();
}

Params read_params(const Run &run, bool bandwidth) {
    const char *test = bandwidth ? "verbs-bw" : "verbs-lat";
    Params p;
    p.bandwidth = bandwidth;
    const std::string op = run.param_string("op");
    p.op = op == "write" ? Op::Write : op == "read" ? Op::Read : Op::Send;
    p.sizes = run.param_int_list("sizes");
    if (p.sizes.empty()) bad(std::string(test) + ": sizes must list at least one size");
    p.iterations = run.param_int("iterations");
    p.warmup = run.param_int("warmup");
    p.inline_size = run.param_int("inline_size");
    p.mode = run.param_string("mode") == "event" ? WaitMode::Event : WaitMode::Poll;
    p.qps = static_cast<int>(run.param_int("qps"));
    p.threads = static_cast<int>(run.param_int("threads"));
    p.bind_address = run.param_string("bind_address");
    p.port = static_cast<int>(run.param_int("port"));
    if (bandwidth) {
        p.duration = run.param_double("duration");
        p.tx_depth = static_cast<int>(run.param_int("tx_depth"));
        p.cq_mod = static_cast<int>(run.param_int("cq_mod"));
        p.rx_depth = static_cast<int>(run.param_int("rx_depth"));
    } else {
        p.verify = run.param_bool("verify");
    }
    if (p.threads > p.qps)
        bad(std::string(test) + ": threads = " + std::to_string(p.threads) +
            " must be in [1, qps] (qps = " + std::to_string(p.qps) + ")");
    if (bandwidth && p.cq_mod > p.tx_depth)
        bad(std::string(test) + ": cq_mod = " + std::to_string(p.cq_mod) +
            " must be in [1, tx_depth] (tx_depth = " + std::to_string(p.tx_depth) + ")");
    if (p.op == Op::Read && p.inline_size > 0)
        bad(std::string(test) + ": inline_size = " + std::to_string(p.inline_size) +
            " does not apply to op = \"read\" (RDMA READ carries no data out): use -1 or 0");
    if (p.inline_size < 0) {
        p.inline_explicit = false;
        p.inline_size = p.op == Op::Read ? 0 : p.default_inline();
    }
    return p;
}

} // namespace verbs
