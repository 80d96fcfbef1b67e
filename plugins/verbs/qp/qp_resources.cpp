// The resources every verbs QP holds (see qp_resources.hpp).
#include "qp/qp_resources.hpp"

#include "run/verbs_run.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>

namespace cmdbench::verbs {

QpResources::~QpResources() {
    if (id_ && id_->qp)
        rdma_destroy_qp(id_);
    else if (!id_ && qp_)
        ibv_destroy_qp(qp_);
    if (mr_) ibv_dereg_mr(mr_);
    if (cq_) ibv_destroy_cq(cq_);
    if (channel_) ibv_destroy_comp_channel(channel_);
    if (pd_) ibv_dealloc_pd(pd_);
    std::free(buf_);
    if (id_) rdma_destroy_id(id_);
}

void QpResources::open(const QpSpec &spec, ibv_qp_type type, size_t bytes, int access) {
    pd_ = ibv_alloc_pd(context_);
    if (!pd_) fail_errno("ibv_alloc_pd", errno);
    channel_ = ibv_create_comp_channel(context_);
    if (!channel_) fail_errno("ibv_create_comp_channel", errno);
    const int flags = fcntl(channel_->fd, F_GETFL);
    if (flags < 0 || fcntl(channel_->fd, F_SETFL, flags | O_NONBLOCK) < 0)
        fail_errno("fcntl O_NONBLOCK on the completion channel", errno);
    const int cqe = spec.cq_depth > 0 ? spec.cq_depth : spec.send_depth + spec.recv_depth + 16;
    cq_ = ibv_create_cq(context_, cqe, nullptr, channel_, 0);
    if (!cq_) fail_errno("ibv_create_cq (" + std::to_string(cqe) + " entries)", errno);
    void *mem = nullptr;
    if (posix_memalign(&mem, 4096, bytes) != 0) fail("verbs: out of memory for buffers");
    buf_ = static_cast<uint8_t *>(mem);
    std::memset(buf_, 0, bytes);
    mr_ = ibv_reg_mr(pd_, buf_, bytes, access);
    if (!mr_) fail_errno("ibv_reg_mr (" + std::to_string(bytes) + " bytes)", errno);
    const MadeQp made = create_qp_with_inline(id_, pd_, cq_, type, spec);
    qp_ = made.qp;
    inline_max_ = made.inline_max;
}

void QpResources::submit_recv(ibv_sge sge, uint64_t wr_id, const char *what) const {
    ibv_recv_wr wr{};
    wr.wr_id = wr_id;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv_recv_wr *bad = nullptr;
    const int rc = ibv_post_recv(qp_, &wr, &bad);
    if (rc != 0) fail_errno(what, rc);
}

void QpResources::submit_list(ibv_send_wr &wr, uint64_t n, const char *what) {
    if (n <= 1) return submit(wr, what);
    chain_.assign(size_t(n), wr);
    for (size_t i = 0; i < chain_.size(); ++i) {
        chain_[i].wr_id = wr.wr_id - (n - 1) + i;
        if (i + 1 < chain_.size()) {
            chain_[i].send_flags &= ~unsigned(IBV_SEND_SIGNALED);
            chain_[i].next = &chain_[i + 1];
        }
    }
    ibv_send_wr *bad = nullptr;
    const int rc = ibv_post_send(id_->qp, chain_.data(), &bad);
    if (rc != 0) cmdbench::support::fail_errno(what, rc);
}

} // namespace cmdbench::verbs
