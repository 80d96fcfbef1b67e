// Creating an RC, UC or UD QP (on an rdma_cm id, or on the protection
// domain alone) with as much inline data as it takes: devices cap max_inline_data (by QP type and
// depths) without saying where, so a refused size is narrowed down by trying.
#ifndef CMDBENCH_VERBS_QP_CREATE_HPP
#define CMDBENCH_VERBS_QP_CREATE_HPP

#include <cstddef>
#include <cstdint>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

namespace cmdbench::verbs {

// What every QP of a run is made with.
struct QpSpec {
    size_t region = 0;  // bytes per buffer region (UD: the largest payload)
    int send_depth = 0; // max_send_wr
    int recv_depth = 0; // max_recv_wr
    int cq_depth = 0;   // CQ entries; 0: send_depth + recv_depth + 16
    int64_t inline_size = 0;
    bool inline_explicit = false;
};

struct MadeQp {
    ibv_qp *qp = nullptr;
    uint32_t inline_max = 0; // the inline size the QP has
};

// Creates a QP (one SGE each way, `cq` for both queues): id's QP with
// rdma_create_qp, or without an id one in RESET with ibv_create_qp; asking
// for spec.inline_size bytes of inline data; if the device refuses, the most
// it accepts, unless the user set inline_size (inline_explicit): then the run
// fails naming the range.
MadeQp create_qp_with_inline(rdma_cm_id *id, ibv_pd *pd, ibv_cq *cq, ibv_qp_type type,
                             const QpSpec &spec);

} // namespace cmdbench::verbs

#endif
