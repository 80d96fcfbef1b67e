// Parameter tables and cross-key checks of the verbs tests.
#include "verbs_params.hpp"

#include "atomics.hpp"
#include "bw_window.hpp"

#include <algorithm>
#include <cmdbench/plugin-support/descriptors.hpp>
#include <cmdbench/plugin-support/param_reader.hpp>
#include <vector>

namespace verbs {
namespace {

constexpr int64_t kMaxSize = int64_t{1} << 30;
constexpr int64_t kMaxCount = 1000000000;
constexpr int64_t kMaxInline = 4096;
constexpr int64_t kMaxDepth = 16384;
// The keys both tests take; sizes and iterations default to perftest's.
#define VERBS_COMMON_PARAMS(sizes, iterations, iterations_help)                                    \
    CMDBENCH_PARAM_STRING_DECL("op", "\"send\"", "send|write|read|fetch_add|cmp_swap",             \
                               "send: SEND/RECV; write: RDMA WRITE; read: RDMA READ; fetch_add, "  \
                               "cmp_swap: 8-byte RDMA atomics (perftest's ib_send_*, "             \
                               "ib_write_*, ib_read_*, ib_atomic_*)"),                             \
        CMDBENCH_PARAM_INT_LIST_DECL(                                                              \
            "sizes", sizes, 1, kMaxSize,                                                           \
            "message sizes in bytes, one row each (perftest -s; default as perftest's); "          \
            "fetch_add, cmp_swap: [8] only, and the default becomes [8]"),                         \
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
        CMDBENCH_PARAM_STRING_DECL("qp_type", "\"rc\"", "rc|ud",                                   \
                                   "rc: reliable connected QPs; ud: unreliable datagram QPs "      \
                                   "(perftest -c UD), op = \"send\" only"),                        \
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
        "cq_mod", 0, 0, kMaxDepth,
        "one signalled completion every cq_mod work requests (perftest -Q), at most tx_depth; "
        "0 = perftest's rule: 100 up to 8192-byte messages, 1 above, lowered to the depth"),
    CMDBENCH_PARAM_INT_DECL("rx_depth", 512, 1, kMaxDepth,
                            "op = send: receives kept posted per QP at the receiver (perftest -r)"),
    CMDBENCH_PARAM_BOOL_DECL(
        "bidirectional", false,
        "both sides send (read: read from each other) at once on every QP (perftest -b): rows "
        "\"<size> c2s\", \"<size> s2c\" and their sum \"<size> bidir\""),
};
#undef VERBS_COMMON_PARAMS

// UD carries SENDs only, each one packet, in one direction per run.
void check_ud(const cmdbench::support::ParamReader &in, const Params &p) {
    if (p.op != Op::Send)
        in.bad(std::string("qp_type = \"ud\" needs op = \"send\" (a UD QP has no RDMA WRITE, "
                           "READ or atomics): op = \"") +
               op_name(p.op) + "\" is not available with it");
    if (p.bidirectional)
        in.bad("bidirectional = true is not available with qp_type = \"ud\": use qp_type = "
               "\"rc\", or run one direction");
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
    case Op::FetchAdd:
        return "fetch_add";
    case Op::CmpSwap:
        return "cmp_swap";
    }
    return "?";
}

int64_t Params::largest_size() const {
    return *std::max_element(sizes.begin(), sizes.end());
}

cmdbench_test verbs_test_descriptor(bool bandwidth, const char *description,
                                    int (*run)(const cmdbench_run_env *)) {
    if (bandwidth)
        return cmdbench::support::test_descriptor("verbs-bw", description, 0, kBwParams, run);
    return cmdbench::support::test_descriptor("verbs-lat", description, 0, kLatParams, run);
}

Params read_params(const Run &run, bool bandwidth) {
    const cmdbench::support::ParamReader in(run.env(), bandwidth ? "verbs-bw" : "verbs-lat");
    Params p;
    p.bandwidth = bandwidth;
    const std::string op = in.text("op");
    p.op = op == "write"       ? Op::Write
           : op == "read"      ? Op::Read
           : op == "fetch_add" ? Op::FetchAdd
           : op == "cmp_swap"  ? Op::CmpSwap
                               : Op::Send;
    p.sizes = in.int_list("sizes");
    if (p.sizes.empty()) in.bad("sizes must list at least one size");
    p.iterations = in.integer("iterations");
    p.warmup = in.integer("warmup");
    p.inline_size = in.integer("inline_size");
    p.mode = in.text("mode") == "event" ? WaitMode::Event : WaitMode::Poll;
    p.qp_type = in.text("qp_type") == "ud" ? QpType::Ud : QpType::Rc;
    p.qps = in.small_int("qps");
    p.threads = in.small_int("threads");
    p.bind_address = in.text("bind_address");
    p.port = in.small_int("port");
    if (bandwidth) {
        p.duration = in.number("duration");
        p.tx_depth = in.small_int("tx_depth");
        p.cq_mod = in.small_int("cq_mod");
        p.rx_depth = in.small_int("rx_depth");
        p.bidirectional = in.boolean("bidirectional");
    } else {
        p.verify = in.boolean("verify");
    }
    if (p.threads > p.qps)
        in.out_of_range("threads", p.threads, "[1, qps]", "qps = " + std::to_string(p.qps));
    if (bandwidth && p.cq_mod != kCqModAuto && p.cq_mod > p.tx_depth)
        in.out_of_range("cq_mod", p.cq_mod, "[1, tx_depth]",
                        "tx_depth = " + std::to_string(p.tx_depth));
    if (is_atomic(p.op)) check_atomic_params(in, p);
    if (p.op == Op::Read && p.inline_size > 0)
        in.bad("inline_size = " + std::to_string(p.inline_size) +
               " does not apply to op = \"read\" (RDMA READ carries no data out): use -1 or 0");
    if (p.qp_type == QpType::Ud) check_ud(in, p);
    if (p.inline_size < 0) {
        p.inline_explicit = false;
        p.inline_size = p.op == Op::Read || is_atomic(p.op) ? 0 : p.default_inline();
    }
    return p;
}

} // namespace verbs
