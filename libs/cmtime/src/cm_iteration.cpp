// CmEngine: one client or server iteration, step by step, with cmtime's barriers 0, 7, 12 and 14
// (and two of ours, see cm_engine.hpp).
#include "async_call.hpp"
#include "cm_engine_state.hpp"
#include "cmdbench/cmtime/cm_engine.hpp"
#include "cmdbench/cmtime/cm_steps_setup.hpp"

#include <algorithm>
#include <memory>
#include <string>

namespace cmdbench::cmtime {

StepReport CmEngine::run_client(const std::vector<sockaddr_storage> &targets, QpMode mode) {
    const uint64_t n = targets.size();
    it_ = std::make_unique<Iteration>(n, mode);
    Iteration &it = *it_;
    for (uint64_t i = 0; i < n; ++i) {
        it.conn[i].target = targets[i];
        it.conn[i].has_target = true;
    }
    it.window = pending_window(targets);
    live_ = &it;
    hooks_.barrier(0);

    it.times.total[kFullConnect].begin();
    client_create_ids();
    if (config_.have_bind) client_bind_addrs();
    worker_step(kResolveAddr, "\tResolving addresses", "resolving addresses",
                [this](Conn &c) { resolve_addr(c); });
    worker_step(kResolveRoute, "\tResolving routes", "resolving routes",
                [this](Conn &c) { resolve_route(c); });
    worker_step(kCreateQp, "\tCreating QPs", "creating QPs", [this, &it](Conn &c) {
        create_qp(c);
        it.complete(kCreateQp);
    });
    worker_step(kInitQp, "\tModify QPs to INIT", "modifying QPs to INIT", [this, &it](Conn &c) {
        modify_qp(c, IBV_QPS_INIT, kInitQpAttr, kInitQp);
        it.complete(kInitQp);
    });

    hooks_.barrier(7);
    client_connect_all();
    hooks_.barrier(kBarrierClientsConnected);
    hooks_.barrier(12);
    client_disconnect_all();
    hooks_.barrier(kBarrierClientsDisconnected);
    hooks_.barrier(14);
    say("\tDestroying QPs");
    say("\tDestroying IDs");
    destroy_all();
    live_ = nullptr;
    StepReport r = compute_report(it.times, config_.threads, mode.fake_qpn == 0);
    it_.reset();
    return r;
}

template <typename Call>
void CmEngine::main_thread_step(int step, int starts_too, const char *line, const char *call_name,
                                Call call) {
    Iteration &it = *it_;
    say(line);
    it.times.total[step].begin();
    for (uint64_t i = 0; i < it.conns; ++i) {
        Conn &c = it.conn[i];
        if (starts_too >= 0) it.t(c, starts_too).begin();
        it.t(c, step).begin();
        const int rc = call(c);
        it.t(c, step).finish();
        if (rc) fail_call(call_name);
    }
    it.times.total[step].finish();
}

void CmEngine::client_create_ids() {
    main_thread_step(kCreateId, kFullConnect, "\tCreating IDs", "rdma_create_id",
                     [this](Conn &c) { return rdma_create_id(channel_, &c.id, &c, RDMA_PS_TCP); });
}

void CmEngine::client_bind_addrs() {
    main_thread_step(kBindAddr, -1, "\tBinding addresses", "rdma_bind_addr", [this](Conn &c) {
        return rdma_bind_addr(c.id, reinterpret_cast<sockaddr *>(&config_.bind));
    });
}

// cmtime queues one item per connection. One queue entry per worker, each
// claiming the next connection, spares a queue node, a lock and a wake-up
// per connection.
void CmEngine::on_every_conn(std::function<void(Conn &)> op) {
    Iteration &it = *it_;
    const uint64_t n = it.conns;
    auto next = std::make_shared<std::atomic<uint64_t>>(0);
    const uint64_t workers = std::min<uint64_t>(config_.threads, n);
    for (uint64_t w = 0; w < workers; ++w)
        queue_->push([this, next, op, &it, n] {
            for (uint64_t i; !queue_->failed() && (i = next->fetch_add(1)) < n;)
                op(it.conn[i]);
        });
}

void CmEngine::worker_step(int step, const char *line, const char *what,
                           std::function<void(Conn &)> op) {
    say(line);
    it_->times.total[step].begin();
    on_every_conn(std::move(op));
    wait_step(step, what);
}

uint64_t CmEngine::pending_window(const std::vector<sockaddr_storage> &targets) const {
    if (config_.max_pending != EngineConfig::kMaxPendingAuto) return config_.max_pending;
    std::vector<std::string> servers;
    for (const sockaddr_storage &t : targets)
        servers.push_back(address_text(t));
    std::sort(servers.begin(), servers.end());
    const auto distinct = uint64_t(std::unique(servers.begin(), servers.end()) - servers.begin());
    return EngineConfig::kPendingPerServer * std::max<uint64_t>(distinct, 1);
}

void CmEngine::client_connect_all() {
    Iteration &it = *it_;
    say("\tConnecting");
    it.times.total[kConnect].begin();
    // cmtime issues every connect at once. With a window (max_pending), at most
    // that many are outstanding (issued, CONNECT_RESPONSE not yet handled):
    // the per-connection "cm connect" intervals start at rdma_connect, so
    // they then leave out the wait for a free slot. A full window is
    // refilled a quarter at a time: one wake-up per quarter, not per connect.
    const uint64_t window = it.window;
    const uint64_t refill = std::max<uint64_t>(1, window / 4);
    StepCompletion &connected = it.completion[kConnect];
    for (uint64_t i = 0; i < it.conns; ++i) {
        if (window && i >= window && connected.done.load() + window <= i) {
            const uint64_t want = i - window + refill;
            connected.wake_at.store(want);
            wait_count(
                connected.done, want, [&] { check_stop("connecting", {}); }, it.wake);
        } else if (i % 256 == 0) {
            throw_if_failed();
        }
        Conn &c = it.conn[i];
        rdma_conn_param p = conn_param(c);
        it.t(c, kConnect).begin();
        if (rdma_connect(c.id, &p)) fail_call("rdma_connect");
    }
    wait_step(kConnect, "connecting");
}

void CmEngine::client_disconnect_all() {
    Iteration &it = *it_;
    say("\tDisconnecting");
    it.times.total[kDisconnect].begin();
    const uint64_t window = it.window;
    if (!window) {
        on_every_conn([this](Conn &c) { client_disconnect(c); });
    } else {
        // At most max_pending disconnects without the server's reply (our
        // DISCONNECTED event). The step still ends with the last call, as
        // cmtime's, not with the replies.
        const uint64_t refill = std::max<uint64_t>(1, window / 4);
        for (uint64_t i = 0; i < it.conns; ++i) {
            if (i >= window && it.disconnect_events.load() + window <= i)
                wait(it.disconnect_events, i - window + refill, "disconnecting");
            Conn *c = &it.conn[i];
            queue_->push([this, c] { client_disconnect(*c); });
        }
    }
    wait_step(kDisconnect, "disconnecting");
}

StepReport CmEngine::run_server(uint64_t n, QpMode mode) {
    it_ = std::make_unique<Iteration>(n, mode);
    Iteration &it = *it_;
    live_ = &it;
    hooks_.barrier(0);
    hooks_.barrier(7);
    // The event thread accepts; ESTABLISHED events complete the step. The
    // barrier the clients reach once connected stays pending meanwhile, so a
    // client that fails ends this wait at once (see async_call.hpp); barrier
    // 12 follows the last ESTABLISHED, as in cmtime.
    {
        AsyncCall connected([this] { hooks_.barrier(kBarrierClientsConnected); });
        wait_step(kConnect, "accepting connections", [&] { connected.rethrow_if_failed(); });
        connected.finish();
    }
    hooks_.barrier(12);
    // DISCONNECTED events trigger the server's disconnects; past the guard
    // the server disconnects the stragglers itself.
    const uint64_t guard_ns = uint64_t(config_.disconnect_guard_ms) * 1000000;
    uint64_t guard_end = now_ns() + guard_ns;
    AsyncCall disconnected([this] { hooks_.barrier(kBarrierClientsDisconnected); });
    for (;;) {
        try {
            wait_step(kDisconnect, "waiting for clients to disconnect", [&] {
                disconnected.rethrow_if_failed();
                if (now_ns() >= guard_end) throw std::out_of_range("guard");
            });
            break;
        } catch (const std::out_of_range &) {
            say(("Timeout waiting for clients to disconnect (got " +
                 std::to_string(it.completed(kDisconnect).load()) + "/" + std::to_string(n) + ")")
                    .c_str());
            for (uint64_t i = 0; i < n; ++i) {
                Conn *c = &it.conn[i];
                if (!c->server_disconnected) queue_->push([this, c] { server_disconnect(*c); });
            }
            guard_end = now_ns() + guard_ns;
        }
    }

    disconnected.finish();
    hooks_.barrier(14);
    destroy_all();
    live_ = nullptr;
    StepReport r = compute_report(it.times, config_.threads, mode.fake_qpn == 0);
    it_.reset();
    return r;
}

} // namespace cmdbench::cmtime
