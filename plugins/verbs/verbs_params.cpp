// Parameter tables and cross-key checks of the verbs tests.
#include "verbs_params.hpp"

#include "atomics.hpp"
#include "qp/local_port.hpp"

#include <algorithm>
#include <cmdbench/plugin-support/descriptors.hpp>
#include <cmdbench/plugin-support/param_spec.hpp>
#include <vector>

namespace cmdbench::verbs {
namespace {

constexpr int64_t kMaxSize = int64_t{1} << 30;
constexpr int64_t kMaxCount = 1000000000;
constexpr int64_t kMaxInline = 4096;
constexpr int64_t kMaxDepth = 16384;

using Spec = cmdbench::support::ParamSpec<Params>;

const cmdbench::support::Choice<Op> kOps{{"send", Op::Send},
                                         {"write", Op::Write},
                                         {"read", Op::Read},
                                         {"fetch_add", Op::FetchAdd},
                                         {"cmp_swap", Op::CmpSwap}};
const cmdbench::support::Choice<WaitMode> kModes{{"poll", WaitMode::Poll},
                                                 {"event", WaitMode::Event}};
const cmdbench::support::Choice<QpType> kQpTypes{
    {"rc", QpType::Rc}, {"uc", QpType::Uc}, {"ud", QpType::Ud}};
const cmdbench::support::Choice<Connect> kConnects{{"rdma_cm", Connect::RdmaCm},
                                                   {"exchange", Connect::Exchange}};

// The link's keys (qp/link_spec.hpp).
void link_params(Spec &spec) {
    spec.choice("connect", &Params::connect, kConnects, Connect::RdmaCm,
                "rdma_cm: each QP its own rdma_cm connection (perftest -R); exchange: QPs made "
                "on the device and connected by swapping QP numbers, PSNs, LIDs and GIDs over "
                "the control channel (perftest without -R; InfiniBand without IPoIB)")
        .text("device", &Params::device, "",
              "RDMA device, e.g. \"rxe0\" (perftest -d); \"\" = the one bind_address is on "
              "(rdma_cm), the first with ib_port ACTIVE (exchange)")
        .integer("ib_port", &Params::ib_port, 1, 1, 255, "port of the device (perftest -i)")
        .integer("gid_index", &Params::gid_index, -1, -1, 255,
                 "GID index, connect = \"exchange\" (perftest -x); -1 = InfiniBand: none, "
                 "RoCE: the first RoCE v2 GID of an IPv4 address, else the first GID there is")
        .integer("mtu", &Params::mtu, 0, 0, 4096,
                 "path MTU in bytes, 256, 512, 1024, 2048 or 4096, connect = \"exchange\" "
                 "(perftest -m); 0 = the port's active MTU; the smaller of both sides' is used")
        .integer("sl", &Params::sl, 0, 0, 15, "service level, connect = \"exchange\" (perftest -S)")
        .integer("traffic_class", &Params::traffic_class, 0, 0, 255,
                 "traffic class of the GRH (perftest --tclass); with connect = \"rdma_cm\" the "
                 "type of service (RDMA_OPTION_ID_TOS, perftest -T)");
}

// The keys both tests take; sizes and iterations default to perftest's
// (verbs-bw's iterations by op: kIterationsByOp).
Spec common_params(const std::vector<int64_t> &sizes, const char *sizes_help, int64_t iterations,
                   int64_t iterations_lo, const char *iterations_help) {
    Spec spec;
    spec.choice("op", &Params::op, kOps, Op::Send,
                "send: SEND/RECV; write: RDMA WRITE; read: RDMA READ; fetch_add, cmp_swap: 8-byte "
                "RDMA atomics (perftest's ib_send_*, ib_write_*, ib_read_*, ib_atomic_*)")
        .int_list("sizes", &Params::sizes, sizes, sizes.front() < 0 ? -1 : 1, kMaxSize, sizes_help)
        .integer("iterations", &Params::iterations, iterations, iterations_lo, kMaxCount,
                 iterations_help)
        .integer("warmup", &Params::warmup, 0, 0, kMaxCount,
                 "untimed messages per QP before each size (perftest: none)")
        .integer("inline_size", &Params::inline_size, -1, -1, kMaxInline,
                 "send/write: messages up to this size go inline (perftest -I); -1 = perftest's "
                 "default (236 latency, 0 bandwidth) lowered to what the QP accepts; an explicit "
                 "value the QP refuses fails the run")
        .choice("mode", &Params::mode, kModes, WaitMode::Poll,
                "poll: busy-poll the CQ; event: ibv_req_notify_cq and sleep on the completion "
                "channel (perftest -e)")
        .integer("qps", &Params::qps, 1, 1, 1024,
                 "RC QPs, each its own rdma_cm connection (perftest -q)")
        .integer("threads", &Params::threads, 1, 1, 256,
                 "threads per side, at most qps; QP i runs on thread i % threads (perftest: 1)")
        .text("bind_address", &Params::bind_address, "",
              "address of the RDMA device to use (perftest --source_ip); \"\" = the server binds "
              "the address the client reached it at")
        .choice("qp_type", &Params::qp_type, kQpTypes, QpType::Rc,
                "rc: reliable connected QPs; uc: unreliable connected QPs (perftest -c UC), op = "
                "\"send\" or \"write\", connect = \"exchange\" only; ud: unreliable datagram "
                "QPs (perftest -c UD), op = \"send\" only")
        .integer("port", &Params::port, 0, 0, 65535,
                 "rdma_cm port of the server; 0 = ephemeral, announced over the control channel");
    link_params(spec);
    return spec;
}

const Spec &lat_params() {
    static const Spec spec = [] {
        Spec s = common_params({2},
                               "message sizes in bytes, one row each (perftest -s; default as "
                               "perftest's); fetch_add, cmp_swap: [8] only, and the default "
                               "becomes [8]",
                               1000, 1,
                               "timed round trips per size and QP (perftest -n; every ib_*_lat's "
                               "default is 1000)");
        s.flag("verify", &Params::verify, false,
               "fill every message with a per-message pattern and check every byte received");
        return s;
    }();
    return spec;
}

const Spec &bw_params() {
    static const Spec spec = [] {
        Spec s = common_params({kSizesByOp},
                               "message sizes in bytes, one row each (perftest -s); [-1] = "
                               "perftest's default: 65536; qp_type = \"ud\": the path MTU; "
                               "fetch_add, cmp_swap: 8",
                               kIterationsByOp, kIterationsByOp,
                               "messages per size and QP (perftest -n); -1 = the default of the "
                               "op's perftest tool: 5000 write (ib_write_bw), 1000 send, read, "
                               "fetch_add, cmp_swap (ib_send_bw, ib_read_bw, ib_atomic_bw)");
        s.number("duration", &Params::duration, "0", 0, 3600,
                 "seconds per size instead of iterations (perftest -D); 0 = iterations")
            .integer("tx_depth", &Params::tx_depth, 128, 1, kMaxDepth,
                     "outstanding work requests per QP at the sender (perftest -t)")
            .integer("cq_mod", &Params::cq_mod, kCqModAuto, 0, kMaxDepth,
                     "one signalled completion every cq_mod work requests (perftest -Q), at most "
                     "tx_depth; 0 = perftest's rule: 100 up to 8192-byte messages, 1 above, "
                     "lowered to the depth")
            .integer("rx_depth", &Params::rx_depth, kDefaultRxDepth, 1, kMaxDepth,
                     "op = send: receives kept posted per QP at the receiver (perftest -r)")
            .integer("post_list", &Params::post_list, 1, 1, kMaxDepth,
                     "work requests chained per ibv_post_send (perftest -l), at most tx_depth; "
                     "a chain ends at each signalled request")
            .flag("run_infinitely", &Params::run_infinitely, false,
                  "needs duration > 0: one row per duration window (\"<size> #N\"), each as it "
                  "ends, until the run is interrupted or its timeout (perftest --run_infinitely)")
            .flag("bidirectional", &Params::bidirectional, false,
                  "both sides send (read: read from each other) at once on every QP (perftest "
                  "-b): rows \"<size> c2s\", \"<size> s2c\" and their sum \"<size> bidir\"");
        return s;
    }();
    return spec;
}

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

// UC: no RDMA READ or atomics; SENDs may be dropped, so not both ways.
void check_uc(const cmdbench::support::ParamReader &in, const Params &p) {
    if (p.op != Op::Send && p.op != Op::Write)
        in.bad(std::string("qp_type = \"uc\" takes op = \"send\" or \"write\" (a UC QP has "
                           "no RDMA READ or atomics): op = \"") +
               op_name(p.op) + "\" is not available with it");
    if (p.bidirectional && p.op == Op::Send)
        in.bad("bidirectional = true with op = \"send\" is not available with qp_type = "
               "\"uc\" (a SEND without a receive is dropped): use op = \"write\", or one "
               "direction");
}

// rdma_cm chooses GID, path MTU and SL from the route, and makes RC and UD
// QPs only (its port spaces RDMA_PS_TCP and RDMA_PS_UDP); the rdma_cm
// address keys mean nothing to a QP connected through the control channel.
void check_connect(const cmdbench::support::ParamReader &in, const Params &p) {
    const std::string needs = " needs connect = \"exchange\"";
    if (p.connect == Connect::RdmaCm) {
        if (p.qp_type == QpType::Uc)
            in.bad("qp_type = \"uc\"" + needs + " (librdmacm makes RC and UD QPs only)");
        if (p.gid_index != -1)
            in.bad("gid_index = " + std::to_string(p.gid_index) + needs +
                   " (rdma_cm takes the GID of the address)");
        if (p.mtu != 0)
            in.bad("mtu = " + std::to_string(p.mtu) + needs +
                   " (rdma_cm takes the path MTU from the route)");
        if (p.sl != 0)
            in.bad("sl = " + std::to_string(p.sl) + needs +
                   " (rdma_cm takes the SL from the route)");
        return;
    }
    if (!p.bind_address.empty())
        in.bad("bind_address = \"" + p.bind_address +
               "\" applies to connect = \"rdma_cm\" only: with \"exchange\" choose the device "
               "with device (and ib_port)");
    if (p.port != 0)
        in.bad("port = " + std::to_string(p.port) +
               " (the rdma_cm port) applies to connect = \"rdma_cm\" only");
}

// verbs-bw's sizes: [-1] (the default) is perftest's size, replaced here
// (UD replaces it again by the path MTU, atomics by 8); -1 stands alone, and
// an explicit size is at least 1.
void check_bw_sizes(const cmdbench::support::ParamReader &in, Params &p) {
    if (p.sizes_by_default) p.sizes = {kBwDefaultSize};
    for (int64_t size : p.sizes)
        if (size < 1)
            in.out_of_range("sizes", size, "[1, " + std::to_string(kMaxSize) + "]",
                            "or sizes = [-1] alone for the default");
}

// verbs-bw's own combinations: the window (cq_mod, post_list within
// tx_depth), an explicit iteration count, and what run_infinitely needs.
void check_bw(const cmdbench::support::ParamReader &in, const Params &p) {
    const std::string depth = "tx_depth = " + std::to_string(p.tx_depth);
    if (p.cq_mod != kCqModAuto && p.cq_mod > p.tx_depth)
        in.out_of_range("cq_mod", p.cq_mod, "[1, tx_depth]", depth);
    if (p.post_list > p.tx_depth) in.out_of_range("post_list", p.post_list, "[1, tx_depth]", depth);
    if (p.iterations == 0)
        in.out_of_range("iterations", 0, "[1, " + std::to_string(kMaxCount) + "]",
                        "or -1 for the op's perftest default");
    if (!p.run_infinitely) return;
    if (p.duration <= 0)
        in.bad("run_infinitely = true needs duration > 0: the seconds of each window (one row "
               "each)");
    if (p.sizes.size() != 1)
        in.bad("run_infinitely = true measures one size until stopped: sizes must list one size");
    if (p.bidirectional) in.bad("run_infinitely = true is not available with bidirectional = true");
    if (p.qp_type == QpType::Ud)
        in.bad("run_infinitely = true is not available with qp_type = \"ud\": use qp_type = "
               "\"rc\"");
}

} // namespace

int64_t default_iterations(bool bandwidth, Op op) {
    return bandwidth && op == Op::Write ? 5000 : 1000;
}

const char *op_name(Op op) {
    return kOps.name(op);
}

int64_t Params::largest_size() const {
    return *std::max_element(sizes.begin(), sizes.end());
}

size_t Params::region() const {
    return (std::max<size_t>(size_t(largest_size()), 64) + 63) / 64 * 64;
}

cmdbench_test verbs_test_descriptor(bool bandwidth, const char *description,
                                    int (*run)(const cmdbench_run_env *)) {
    const Spec &spec = bandwidth ? bw_params() : lat_params();
    return cmdbench::support::test_descriptor(bandwidth ? "verbs-bw" : "verbs-lat", description, 0,
                                              spec.size(), spec.table(), run);
}

std::vector<int64_t> default_sizes(bool bandwidth) {
    return (bandwidth ? bw_params() : lat_params()).defaults().sizes;
}

Params read_params(const Run &run, bool bandwidth) {
    const cmdbench::support::ParamReader in(run.env(), bandwidth ? "verbs-bw" : "verbs-lat");
    Params p = (bandwidth ? bw_params() : lat_params()).read(in);
    p.bandwidth = bandwidth;
    if (p.sizes.empty()) in.bad("sizes must list at least one size");
    p.sizes_by_default = p.sizes == default_sizes(bandwidth);
    if (bandwidth) check_bw_sizes(in, p);
    if (p.threads > p.qps)
        in.out_of_range("threads", p.threads, "[1, qps]", "qps = " + std::to_string(p.qps));
    if (bandwidth) check_bw(in, p);
    if (p.iterations == kIterationsByOp) p.iterations = default_iterations(bandwidth, p.op);
    if (is_atomic(p.op)) check_atomic_params(in, p);
    if (p.op == Op::Read && p.inline_size > 0)
        in.bad("inline_size = " + std::to_string(p.inline_size) +
               " does not apply to op = \"read\" (RDMA READ carries no data out): use -1 or 0");
    if (p.qp_type == QpType::Ud) check_ud(in, p);
    if (p.qp_type == QpType::Uc) check_uc(in, p);
    if (p.mtu != 0 && !mtu_of_bytes(uint32_t(p.mtu)))
        in.bad("mtu = " + std::to_string(p.mtu) +
               " must be one of 0 (the port's active MTU), 256, 512, 1024, 2048, 4096");
    check_connect(in, p);
    if (p.inline_size < 0) {
        p.inline_explicit = false;
        p.inline_size = is_one_sided(p.op) ? 0 : p.default_inline();
    }
    return p;
}

} // namespace cmdbench::verbs
