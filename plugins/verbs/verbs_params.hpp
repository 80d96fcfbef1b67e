// Parameters of verbs-lat and verbs-bw: the tables the host validates (type
// and range) and the checks across keys that only the plugin can make; and
// the two tests' bodies and descriptors. The QP layer (qp/) gets what it
// needs from here as structs of its own (LinkSpec, QpSpec), never Params.
#ifndef CMDBENCH_VERBS_PARAMS_HPP
#define CMDBENCH_VERBS_PARAMS_HPP

#include "qp/cm_link.hpp"
#include "qp/wait_mode.hpp"
#include "run/verbs_run.hpp"

#include <cmdbench/plugin.h>
#include <cstdint>
#include <infiniband/verbs.h>
#include <string>
#include <vector>

namespace cmdbench::verbs {

enum class Op { Send, Write, Read, FetchAdd, CmpSwap };
enum class QpType { Rc, Uc, Ud };

const char *op_name(Op op);
// fetch_add and cmp_swap: 8-byte RDMA atomics (atomics.hpp).
inline bool is_atomic(Op op) {
    return op == Op::FetchAdd || op == Op::CmpSwap;
}
// read and the atomics: the client's request is the whole round trip, the
// server's side passive (no receive, no answer of its own).
inline bool is_one_sided(Op op) {
    return op == Op::Read || is_atomic(op);
}

// verbs-bw's sizes = [-1], its default: the op's and qp_type's size, by
// default perftest's -s (kBwDefaultSize).
constexpr int64_t kSizesByOp = -1;
constexpr int64_t kBwDefaultSize = 65536;
// verbs-bw's default rx_depth, which UD raises to its own rule (ud_bw.cpp).
constexpr int kDefaultRxDepth = 512;
// verbs-bw's cq_mod = 0: chosen by message size (bw/bw_window.hpp).
constexpr int kCqModAuto = 0;
// iterations = -1: perftest's default of the op's tool (default_iterations).
constexpr int64_t kIterationsByOp = -1;

// Filled from the test's table (verbs_params.cpp), where each key's default,
// range and help are declared; a key the test lacks stays zero.
struct Params {
    bool bandwidth = false; // verbs-bw, else verbs-lat
    Op op{};
    QpType qp_type{}; // ud: datagrams, op = send only (ud_conn.hpp); uc: send, write
    std::vector<int64_t> sizes;
    // sizes left out (verbs-bw: [-1], verbs-lat: its default [2]): the op's
    // and qp_type's default applies (atomics: 8; UD verbs-bw: the path MTU).
    bool sizes_by_default = false;
    int64_t iterations{};
    int64_t warmup{};
    double duration{};           // verbs-bw: seconds per size; 0 = iterations
    int64_t inline_size{};       // resolved: never -1
    bool inline_explicit = true; // false: the default, clamped to what the QP accepts
    WaitMode mode{};
    int qps{};
    int threads{};
    int tx_depth{};
    int cq_mod{}; // 0: by size, perftest's rule (bw_window.hpp)
    int rx_depth{};
    int post_list{};       // verbs-bw: work requests chained per ibv_post_send (perftest -l)
    bool run_infinitely{}; // verbs-bw: one row per duration window until stopped
    bool bidirectional{};  // verbs-bw: both sides send at once (perftest -b)
    bool verify{};
    std::string bind_address;
    int port{};
    // The link (qp/link_spec.hpp): how QPs connect, device, port, GID, path.
    Connect connect{};
    std::string device;
    int ib_port{};
    int gid_index{};
    int mtu{};
    int sl{};
    int traffic_class{};

    // The test's default inline size (perftest's): 236 for latency (send and
    // write; 188 over UD), 0 for bandwidth.
    int64_t default_inline() const { return bandwidth ? 0 : qp_type == QpType::Ud ? 188 : 236; }
    int64_t largest_size() const;
    // The buffer region every QP gets: the largest size, cache-line rounded.
    size_t region() const;
    // What the QP sets need to meet and connect.
    LinkSpec link() const {
        return {qps,     bind_address, port, connect, device,
                ib_port, gid_index,    mtu,  sl,      traffic_class};
    }
    // RC or UC QPs for the connected types.
    ibv_qp_type connected_type() const { return qp_type == QpType::Uc ? IBV_QPT_UC : IBV_QPT_RC; }
};

// verbs-bw's descriptor when `bandwidth`, else verbs-lat's, with its table.
cmdbench_test verbs_test_descriptor(bool bandwidth, const char *description,
                                    int (*run)(const cmdbench_run_env *));

// The tests' bodies (lat/lat_runner.cpp, bw/bw_runner.cpp), for their
// descriptors.
void run_lat(Run &run);
void run_bw(Run &run);

// perftest 4.5's default -n of the tool for `op`: every ib_*_lat 1000;
// ib_write_bw 5000, ib_send_bw, ib_read_bw and ib_atomic_bw 1000.
int64_t default_iterations(bool bandwidth, Op op);

// The table's default `sizes` of verbs-bw when `bandwidth`, else verbs-lat.
std::vector<int64_t> default_sizes(bool bandwidth);

// Reads the run's parameters and checks the combinations; a bad one throws
// RunError naming the keys and the allowed range.
Params read_params(const Run &run, bool bandwidth);

} // namespace cmdbench::verbs

#endif
