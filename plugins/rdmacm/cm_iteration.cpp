// CmEngine: one client or server iteration, step by step (spec cmtime.md
// §6-§8), with cmtime's barriers 0, 7, 12 and 14.
#include "async_call.hpp"
#include "cm_engine.hpp"
#include "cm_engine_state.hpp"

namespace cmtime {

StepReport CmEngine::run_client(const std::vector<sockaddr_storage> &targets, QpMode mode) {
    const uint64_t n = targets.size();
    it_ = std::make_unique<Iteration>(n, mode);
    Iteration &it = *it_;
    for (uint64_t i = 0; i < n; ++i) {
        it.conn[i].target = targets[i];
        it.conn[i].has_target = true;
    }
    live_ = &it;
    hooks_.barrier(0);

    StepTimes &T = it.times;
    T.total[kFullConnect].begin();
    say("\tCreating IDs");
    T.total[kCreateId].begin();
    for (uint64_t i = 0; i < n; ++i) {
        Conn &c = it.conn[i];
        it.t(c, kFullConnect).begin();
        it.t(c, kCreateId).begin();
        const int rc = rdma_create_id(channel_, &c.id, &c, RDMA_PS_TCP);
        it.t(c, kCreateId).finish();
        if (rc) fail_call("rdma_create_id");
    }
    T.total[kCreateId].finish();

    if (config_.have_bind) {
        say("\tBinding addresses");
        T.total[kBindAddr].begin();
        for (uint64_t i = 0; i < n; ++i) {
            Conn &c = it.conn[i];
            it.t(c, kBindAddr).begin();
            const int rc = rdma_bind_addr(c.id, reinterpret_cast<sockaddr *>(&config_.bind));
            it.t(c, kBindAddr).finish();
            if (rc) fail_call("rdma_bind_addr");
        }
        T.total[kBindAddr].finish();
    }

    auto each = [&](void (CmEngine::*op)(Conn &)) {
        for (uint64_t i = 0; i < n; ++i) {
            Conn *c = &it.conn[i];
            queue_->push([this, c, op] { (this->*op)(*c); });
        }
    };
    say("\tResolving addresses");
    T.total[kResolveAddr].begin();
    each(&CmEngine::resolve_addr);
    wait(it.completed[kResolveAddr], n, "resolving addresses");
    T.total[kResolveAddr].finish();

    say("\tResolving routes");
    T.total[kResolveRoute].begin();
    each(&CmEngine::resolve_route);
    wait(it.completed[kResolveRoute], n, "resolving routes");
    T.total[kResolveRoute].finish();

    say("\tCreating QPs");
    T.total[kCreateQp].begin();
    for (uint64_t i = 0; i < n; ++i) {
        Conn *c = &it.conn[i];
        queue_->push([this, c, &it] {
            create_qp(*c);
            it.completed[kCreateQp]++;
        });
    }
    wait(it.completed[kCreateQp], n, "creating QPs");
    T.total[kCreateQp].finish();

    say("\tModify QPs to INIT");
    T.total[kInitQp].begin();
    for (uint64_t i = 0; i < n; ++i) {
        Conn *c = &it.conn[i];
        queue_->push([this, c, &it] {
            modify_qp(*c, IBV_QPS_INIT, kInitQpAttr, kInitQp);
            it.completed[kInitQp]++;
        });
    }
    wait(it.completed[kInitQp], n, "modifying QPs to INIT");
    T.total[kInitQp].finish();

    hooks_.barrier(7);
    say("\tConnecting");
    T.total[kConnect].begin();
    for (uint64_t i = 0; i < n; ++i) {
        Conn &c = it.conn[i];
        rdma_conn_param p = conn_param(c);
        it.t(c, kConnect).begin();
        if (rdma_connect(c.id, &p)) fail_call("rdma_connect");
    }
    wait(it.completed[kConnect], n, "connecting");
    T.total[kConnect].finish();
    T.total[kFullConnect].finish();

    hooks_.barrier(12);
    say("\tDisconnecting");
    T.total[kDisconnect].begin();
    each(&CmEngine::client_disconnect);
    wait(it.completed[kDisconnect], n, "disconnecting");
    T.total[kDisconnect].finish();

    hooks_.barrier(14);
    say("\tDestroying QPs");
    say("\tDestroying IDs");
    destroy_all();
    live_ = nullptr;
    StepReport r = compute_report(T, config_.threads, mode.fake_qpn == 0);
    it_.reset();
    return r;
}

StepReport CmEngine::run_server(uint64_t n, QpMode mode) {
    it_ = std::make_unique<Iteration>(n, mode);
    Iteration &it = *it_;
    live_ = &it;
    hooks_.barrier(0);
    hooks_.barrier(7);
    // The event thread accepts; ESTABLISHED events complete the step. The
    // barrier the clients reach once connected stays pending meanwhile, so a
    // client that fails ends this wait at once (see async_call.hpp).
    {
        AsyncCall connected([this] { hooks_.barrier(12); });
        wait(it.completed[kConnect], n, "accepting connections",
             [&] { connected.rethrow_if_failed(); });
        connected.finish();
    }
    // DISCONNECTED events trigger the server's disconnects; past the guard
    // the server disconnects the stragglers itself (§15).
    const uint64_t guard_ns = uint64_t(config_.disconnect_guard_ms) * 1000000;
    uint64_t guard_end = now_ns() + guard_ns;
    AsyncCall disconnected([this] { hooks_.barrier(14); });
    for (;;) {
        try {
            wait_count(it.completed[kDisconnect], n, [&] {
                disconnected.rethrow_if_failed();
                if (now_ns() >= guard_end) throw std::out_of_range("guard");
                if (failed_) {
                    std::lock_guard<std::mutex> lock(fatal_mu_);
                    throw std::runtime_error(fatal_);
                }
                if (queue_->failed()) throw std::runtime_error(queue_->failure());
                hooks_.check_stop("waiting for clients to disconnect");
            });
            break;
        } catch (const std::out_of_range &) {
            say(("Timeout waiting for clients to disconnect (got " +
                 std::to_string(it.completed[kDisconnect].load()) + "/" + std::to_string(n) + ")")
                    .c_str());
            for (uint64_t i = 0; i < n; ++i) {
                Conn *c = &it.conn[i];
                if (!c->server_disconnected) queue_->push([this, c] { server_disconnect(*c); });
            }
            guard_end = now_ns() + guard_ns;
        }
    }

    disconnected.finish();
    destroy_all();
    live_ = nullptr;
    StepReport r = compute_report(it.times, config_.threads, mode.fake_qpn == 0);
    it_.reset();
    return r;
}

} // namespace cmtime
