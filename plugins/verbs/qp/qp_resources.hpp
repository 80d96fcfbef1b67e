// What an RC or UC QP (Conn) and a UD QP (UdConn) both hold: the device
// context and port, the rdma_cm id when rdma_cm made the QP (none when the
// peers swap QP numbers themselves), a protection domain, a non-blocking
// completion channel and the CQ, one registered buffer that starts with the
// send region, and the QP made on them; plus the one-SGE work requests both
// post.
#ifndef CMDBENCH_VERBS_QP_RESOURCES_HPP
#define CMDBENCH_VERBS_QP_RESOURCES_HPP

#include "qp/qp_create.hpp"

#include <cmdbench/plugin-support/run_error.hpp>
#include <cstdint>
#include <infiniband/verbs.h>
#include <memory>
#include <rdma/rdma_cma.h>
#include <vector>

namespace cmdbench::verbs {

class QpResources {
  public:
    QpResources(const QpResources &) = delete;
    QpResources &operator=(const QpResources &) = delete;

    uint32_t index() const { return index_; } // the QP's number in the run, 0 .. qps-1
    rdma_cm_id *id() const { return id_; }    // nullptr without rdma_cm
    ibv_qp *qp() const { return qp_; }
    ibv_context *context() const { return context_; }
    uint8_t port() const { return port_; }
    ibv_cq *cq() const { return cq_; }
    ibv_comp_channel *channel() const { return channel_; }
    uint8_t *send_buf() const { return buf_; }
    uint32_t inline_max() const { return inline_max_; }
    bool armed = false; // the CQ was armed with ibv_req_notify_cq (event mode)

  protected:
    // Owns `id` from here on; a derived constructor that fails sets id_ to
    // nullptr first (its caller still owns the id) and this frees the rest.
    QpResources(rdma_cm_id *id, uint32_t index, size_t region)
        : id_(id), context_(id->verbs), port_(id->port_num), index_(index), region_(region) {}
    // Without rdma_cm: the QP is made on `context` (owned by the caller,
    // outliving this), in the RESET state.
    QpResources(ibv_context *context, uint8_t port, uint32_t index, size_t region)
        : id_(nullptr), context_(context), port_(port), index_(index), region_(region) {}
    ~QpResources();

    // The PD, channel, CQ (spec.cq_depth, else both depths + 16), a zeroed page-aligned
    // buffer of `bytes` registered with `access`, then the QP of `type`.
    void open(const QpSpec &spec, ibv_qp_type type, size_t bytes, int access);

    // `len` bytes of our buffer from `offset`.
    ibv_sge sge_at(size_t offset, uint32_t len) const {
        return {reinterpret_cast<uintptr_t>(buf_ + offset), len, mr_->lkey};
    }
    static ibv_send_wr send_wr(ibv_sge &sge, ibv_wr_opcode opcode, bool signaled, uint64_t wr_id) {
        ibv_send_wr wr{};
        wr.wr_id = wr_id;
        wr.sg_list = &sge;
        wr.num_sge = 1;
        wr.opcode = opcode;
        wr.send_flags = signaled ? IBV_SEND_SIGNALED : 0;
        return wr;
    }
    // ibv_post_send / ibv_post_recv; a refusal fails the run as `what`.
    // Inline: the latency loops post once per round trip.
    void submit(ibv_send_wr &wr, const char *what) const {
        ibv_send_wr *bad = nullptr;
        const int rc = ibv_post_send(qp_, &wr, &bad);
        if (rc != 0) cmdbench::support::fail_errno(what, rc);
    }
    void submit_recv(ibv_sge sge, uint64_t wr_id, const char *what) const;
    // `wr` as the last of `n` copies chained in one ibv_post_send (a post
    // list): the copies before it get wr_id - n + 1 .. wr_id - 1 and no
    // completion; n = 1 is submit(wr).
    void submit_list(ibv_send_wr &wr, uint64_t n, const char *what);

    rdma_cm_id *id_;
    ibv_context *context_;
    uint8_t port_;
    ibv_qp *qp_ = nullptr;
    uint32_t index_;
    size_t region_;
    ibv_pd *pd_ = nullptr;
    ibv_comp_channel *channel_ = nullptr;
    ibv_cq *cq_ = nullptr;
    ibv_mr *mr_ = nullptr;
    uint8_t *buf_ = nullptr;
    uint32_t inline_max_ = 0;
    std::vector<ibv_send_wr> chain_; // submit_list's requests
};

// The QPs thread `thread` of `threads` runs: every threads-th, from its own
// index (RC Conns and UD UdConns alike).
template <class QP>
std::vector<QP *> qps_of_thread(const std::vector<std::unique_ptr<QP>> &qps, int thread,
                                int threads) {
    std::vector<QP *> out;
    for (size_t i = size_t(thread); i < qps.size(); i += size_t(threads))
        out.push_back(qps[i].get());
    return out;
}

} // namespace cmdbench::verbs

#endif
