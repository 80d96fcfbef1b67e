// CmEngine: the per-connection work items,
// each stamping its own step intervals.
#include "cm_engine_state.hpp"
#include "cmdbench/cmtime/cm_engine.hpp"

#include <infiniband/verbs.h>
#include <time.h>

namespace cmdbench::cmtime {
namespace {

// The mimic delay replaces a QP create/modify. Unlike cmtime, whole seconds
// are honoured too (the option is range-checked anyway).
void mimic_sleep(uint32_t us) {
    if (us == 0) return;
    timespec ts{time_t(us / 1000000), long(us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

} // namespace

void CmEngine::resolve_addr(Conn &c) {
    Iteration &it = *it_;
    c.retries = config_.retries;
    it.t(c, kResolveAddr).begin();
    sockaddr *src = config_.have_bind ? reinterpret_cast<sockaddr *>(&config_.bind) : nullptr;
    if (rdma_resolve_addr(c.id, src,
                          reinterpret_cast<sockaddr *>(const_cast<sockaddr_storage *>(&c.target)),
                          config_.timeout_ms))
        fail_call("rdma_resolve_addr");
}

void CmEngine::resolve_route(Conn &c) {
    Iteration &it = *it_;
    c.retries = config_.retries;
    it.t(c, kResolveRoute).begin();
    if (rdma_resolve_route(c.id, config_.timeout_ms)) fail_call("rdma_resolve_route");
}

void CmEngine::create_qp(Conn &c) {
    Iteration &it = *it_;
    if (it.mode.fake_qpn) {
        it.t(c, kCreateQp).begin();
        mimic_sleep(it.mode.delay_us);
        it.t(c, kCreateQp).finish();
        return;
    }
    {
        // One PD and one CQ for the process, from the first QP's device.
        std::lock_guard<std::mutex> lock(verbs_mu_);
        if (!pd_) {
            say("\tAllocating verbs resources");
            verbs_ = c.id->verbs;
            pd_ = ibv_alloc_pd(verbs_);
            if (!pd_) fail_call("ibv_alloc_pd");
            cq_ = ibv_create_cq(verbs_, 1, nullptr, nullptr, 0);
            if (!cq_) fail_call("ibv_create_cq");
        }
    }
    ibv_qp_init_attr attr{};
    attr.qp_context = &c;
    attr.send_cq = cq_;
    attr.recv_cq = cq_;
    attr.cap.max_send_wr = 1;
    attr.cap.max_recv_wr = 1;
    attr.cap.max_send_sge = 1;
    attr.cap.max_recv_sge = 1;
    attr.qp_type = IBV_QPT_RC;
    attr.sq_sig_all = 1;
    it.t(c, kCreateQp).begin();
    c.qp = ibv_create_qp(pd_, &attr);
    it.t(c, kCreateQp).finish();
    if (!c.qp) fail_call("ibv_create_qp");
}

void CmEngine::modify_qp(Conn &c, int state, int attr_step, int modify_step) {
    Iteration &it = *it_;
    ibv_qp_attr attr{};
    int mask = 0;
    attr.qp_state = static_cast<ibv_qp_state>(state);
    it.t(c, attr_step).begin();
    const int rc = rdma_init_qp_attr(c.id, &attr, &mask);
    it.t(c, attr_step).finish();
    if (rc) fail_call("rdma_init_qp_attr");
    if (it.mode.fake_qpn) {
        it.t(c, modify_step).begin();
        mimic_sleep(it.mode.delay_us);
        it.t(c, modify_step).finish();
        return;
    }
    it.t(c, modify_step).begin();
    const int mrc = ibv_modify_qp(c.qp, &attr, mask);
    it.t(c, modify_step).finish();
    if (mrc) {
        errno = mrc;
        fail_call("ibv_modify_qp");
    }
}

rdma_conn_param CmEngine::conn_param(Conn &c) {
    rdma_conn_param p{};
    p.responder_resources = 1;
    p.initiator_depth = 1;
    p.qp_num = c.qp ? c.qp->qp_num : it_->next_qpn.fetch_add(1);
    return p;
}

void CmEngine::connect_response(Conn &c) {
    Iteration &it = *it_;
    modify_qp(c, IBV_QPS_RTR, kRtrQpAttr, kRtrQp);
    modify_qp(c, IBV_QPS_RTS, kRtsQpAttr, kRtsQp);
    it.t(c, kEstablish).begin();
    const int rc = rdma_establish(c.id);
    it.t(c, kEstablish).finish();
    if (rc) fail_call("rdma_establish");
    it.t(c, kConnect).finish();
    it.t(c, kFullConnect).finish();
    it.complete(kConnect, kFullConnect);
}

void CmEngine::accept(Conn &c) {
    create_qp(c);
    modify_qp(c, IBV_QPS_INIT, kInitQpAttr, kInitQp);
    modify_qp(c, IBV_QPS_RTR, kRtrQpAttr, kRtrQp);
    modify_qp(c, IBV_QPS_RTS, kRtsQpAttr, kRtsQp);
    rdma_conn_param p = conn_param(c);
    if (rdma_accept(c.id, &p)) fail_call("failure accepting");
}

void CmEngine::client_disconnect(Conn &c) {
    Iteration &it = *it_;
    // Done when the call returns: no wait for the server's reply.
    it.t(c, kDisconnect).begin();
    rdma_disconnect(c.id);
    it.t(c, kDisconnect).finish();
    it.complete(kDisconnect);
}

void CmEngine::server_disconnect(Conn &c) {
    Iteration &it = *it_;
    if (c.server_disconnected.exchange(true)) return; // the guard got there first
    it.t(c, kDisconnect).begin();
    rdma_disconnect(c.id);
    it.t(c, kDisconnect).finish();
    // Stamped by the N-th completion, whatever triggered it (cmtime can
    // leave it unstamped after its guard fired).
    it.complete(kDisconnect);
}

void CmEngine::destroy_all() {
    Iteration &it = *it_;
    const uint64_t n = it.conns;
    it.times.total[kDestroyQp].begin();
    for (uint64_t i = 0; i < n; ++i) {
        Conn &c = it.conn[i];
        it.t(c, kDestroyQp).begin(); // stamped even without a QP, as cmtime
        if (c.qp) ibv_destroy_qp(c.qp);
        it.t(c, kDestroyQp).finish();
        c.qp = nullptr;
    }
    it.times.total[kDestroyQp].finish();
    it.times.total[kDestroyId].begin();
    for (uint64_t i = 0; i < n; ++i) {
        Conn &c = it.conn[i];
        if (!c.id) continue;
        it.t(c, kDestroyId).begin();
        rdma_destroy_id(c.id);
        it.t(c, kDestroyId).finish();
        c.id = nullptr;
    }
    it.times.total[kDestroyId].finish();
}

} // namespace cmdbench::cmtime
