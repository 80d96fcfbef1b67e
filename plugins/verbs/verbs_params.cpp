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
// The keys both tests take; sizes and iterations default to perftest's.
#define VERBS_COMMON_PARAMS(sizes, iterations, iterations_help)                                    \
    CMDBENCH_PARAM_STRING_DECL("op", "\"send\"", "send|write|read",                                \
                               "send: SEND/RECV; write: RDMA WRITE; read: RDMA READ (perftest's "  \
                               "ib_send_*, ib_write_*, ib_read_*)"),                               \
        CMDBENCH_PARAM_INT_LIST_DECL(                                                              \
            "sizes", sizes, 1, kMaxSize,                                                           \
            "message sizes in bytes, one row each (perftest -s; default as perftest's)"),          \
        CMDBENCH_PARAM_INT_DECL("iterations", iterations, 1, kMaxCount, iterations_help),          \
        CMDBENCH_PARAM_INT_DECL("warmup", 0, 0, kMaxCount,                                         \
                                "untimed messages per QP before each size (perftest: none)"),      \
        CMDBENCH_PARAM_INT_DECL(                                                                   \
            "inline_size", -1, -1, kMaxInline,                                                     \
            "send/write: messages up to this size go inline (perftest -I); -1 = perftest's "       \
            "default (236 latency, 0 bandwidth) lowered to what the QP accepts; an explicit "      \
            "value the QP refuses fails the run"),                                                 \
        CMDBENCH_PARAM_STRING_DECL(                                                                \
            "mode", "\"poll\"", "poll|event",                                                      \
            "poll: busy-poll the CQ; event: ibv_req_notify_cq and sleep on "                       \
            "the completion channel (perftest -e)"),                                               \
        CMDBENCH_PARAM_INT_DECL("qps", 1, 1, 1024,                                                 \
                                "RC QPs, each its own rdma_cm connection (perftest -q)"),          \
        CMDBENCH_PARAM_INT_DECL(                                                                   \
            "threads", 1, 1, 256,                                                                  \
            "threads per side, at most qps; QP i runs on thread i % threads (perftest: 1)"),       \
        CMDBENCH_PARAM_STRING_DECL(                                                                \
            "bind_address", "\"\"", nullptr,                                                       \
            "address of the RDMA device to use (perftest -F/--bind_source_ip); \"\" = the server " \
            "binds the address the client reached it at"),                                         \
        CMDBENCH_PARAM_INT_DECL(                                                                   \
            "port", 0, 0, 65535,                                                                   \
            "rdma_cm port of the server; 0 = ephemeral, announced over the control channel")

const cmdbench_param kLatParams[] = {
    VERBS_COMMON_PARAMS("[2]", 1000, "timed round trips per size and QP (perftest -n)"),
    CMDBENCH_PARAM_BOOL_DECL(
        "verify", false,
        "fill every message with a per-message pattern and check every byte received"),
};

const cmdbench_param kBwParams[] = {
    VERBS_COMMON_PARAMS("[65536]", 5000, "messages per size and QP (perftest -n)"),
    CMDBENCH_PARAM_DOUBLE_DECL(
        "duration", 0, 0, 3600,
        "seconds per size instead of iterations (perftest -D); 0 = iterations"),
    CMDBENCH_PARAM_INT_DECL("tx_depth", 128, 1, kMaxDepth,
                            "outstanding work requests per QP at the sender (perftest -t)"),
    CMDBENCH_PARAM_INT_DECL(
        "cq_mod", 100, 1, kMaxDepth,
        "one signalled completion every cq_mod work requests (perftest -Q); at most tx_depth"),
    CMDBENCH_PARAM_INT_DECL("rx_depth", 512, 1, kMaxDepth,
                            "op = send: receives kept posted per QP at the receiver (perftest -r)"),
    CMDBENCH_PARAM_BOOL_DECL(
        "bidirectional", false,
        "both sides send (read: read from each other) at once on every QP (perftest -b): rows "
        "\"<size> c2s\", \"<size> s2c\" and their sum \"<size> bidir\""),
};
#undef VERBS_COMMON_PARAMS

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
    *count = uint32_t(sizeof(kLatParams) / sizeof(kLatParams[0]));
    return kLatParams;
}

const cmdbench_param *bw_params(uint32_t *count) {
    *count = uint32_t(sizeof(kBwParams) / sizeof(kBwParams[0]));
    return kBwParams;
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
        p.bidirectional = run.param_bool("bidirectional");
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
