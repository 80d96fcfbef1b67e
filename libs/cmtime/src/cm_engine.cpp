// CmEngine: set-up, the CM event thread and bounded waits.
#include "cmdbench/cmtime/cm_engine.hpp"

#include "cm_engine_state.hpp"
#include "cmdbench/cmtime/cm_steps_setup.hpp"

#include <cerrno>
#include <cmdbench/plugin-support/run_error.hpp>
#include <cmdbench/rdma-util/cm_event.hpp>
#include <cmdbench/rdma-util/rdma_device.hpp>
#include <infiniband/verbs.h>

namespace cmdbench::cmtime {
namespace {

// A connection's failure event, naming the peer: the server the connection
// was going to (`target`, none for a server's connection).
std::string failed_event_text(const rdma_cm_event &event, const sockaddr_storage *target) {
    return "event: " + std::string(rdma_event_str(event.event)) +
           ", error: " + std::to_string(event.status) +
           (target ? " (connection to the server at " + address_text(*target) + ")"
                   : std::string());
}

} // namespace

std::string rdma_device_problem() {
    const std::string problem = cmdbench::rdma::rdma_device_problem();
    return problem.empty() ? problem : "no RDMA device: " + problem;
}

CmEngine::CmEngine(const EngineConfig &config, EngineHooks hooks)
    : config_(config), hooks_(std::move(hooks)) {
    // Non-blocking, so the event thread can notice the end of the run.
    cmdbench::rdma::ChannelFailure failure;
    channel_ = cmdbench::rdma::open_event_channel(failure);
    if (!channel_) {
        errno = failure.err;
        fail_call(failure.call.c_str());
    }
    queue_ = std::make_unique<WorkQueue>(config_.threads);
    events_ = std::thread([this] { event_loop(); });
}

CmEngine::~CmEngine() {
    // The event thread first (it queues work), then the workers: after that
    // nothing touches the ids any more.
    stopping_ = true;
    events_.join();
    queue_.reset();
    if (it_) destroy_all();
    if (listen_id_) rdma_destroy_id(listen_id_);
    if (cq_) ibv_destroy_cq(cq_);
    if (pd_) ibv_dealloc_pd(pd_);
    rdma_destroy_event_channel(channel_);
}

void CmEngine::fatal(const std::string &why) {
    std::lock_guard<std::mutex> lock(fatal_mu_);
    if (!failed_) fatal_ = why;
    failed_ = true;
}

void CmEngine::say(const char *line) {
    if (hooks_.progress) hooks_.progress(line);
}

void CmEngine::throw_if_failed() {
    if (failed_) {
        std::lock_guard<std::mutex> lock(fatal_mu_);
        throw std::runtime_error(fatal_);
    }
    if (queue_->failed()) throw std::runtime_error(queue_->failure());
}

void CmEngine::check_stop(const char *what, const std::function<void()> &also) {
    if (also) also();
    throw_if_failed();
    hooks_.check_stop(what);
}

void CmEngine::wait_step(int step, const char *what, const std::function<void()> &also) {
    Iteration &it = *it_;
    wait_count(
        it.completed(step), it.conns, [&] { check_stop(what, also); }, it.wake);
}

void CmEngine::wait(std::atomic<uint64_t> &done, uint64_t want, const char *what) {
    wait_count(done, want, [&] { check_stop(what, {}); });
}

sockaddr_storage CmEngine::listen() {
    if (rdma_create_id(channel_, &listen_id_, nullptr, RDMA_PS_TCP)) fail_call("rdma_create_id");
    sockaddr_storage any{};
    any.ss_family = AF_INET;
    sockaddr *addr = reinterpret_cast<sockaddr *>(config_.have_bind ? &config_.bind : &any);
    if (rdma_bind_addr(listen_id_, addr)) fail_call("rdma_bind_addr");
    // Backlog 0: the kernel uses its maximum (net.rdma_ucm.max_backlog).
    if (rdma_listen(listen_id_, 0)) fail_call("rdma_listen");
    sockaddr_storage bound{};
    const sockaddr *src = rdma_get_local_addr(listen_id_);
    std::memcpy(&bound, src,
                src->sa_family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in));
    return bound;
}

void CmEngine::event_loop() {
    while (!stopping_) {
        rdma_cm_event *event = nullptr;
        const int got = cmdbench::rdma::wait_cm_event(channel_, 50, &event);
        if (got < 0) fatal("rdma_get_cm_event: " + cmdbench::support::errno_text(errno));
        if (got <= 0) continue;
        try {
            handle_event(event);
        } catch (const std::exception &e) {
            fatal(e.what());
        }
        rdma_ack_cm_event(event);
        // A refused request's id: destroying it waits for its events to be
        // acknowledged, so only now.
        if (refused_) rdma_destroy_id(refused_);
        refused_ = nullptr;
    }
}

void CmEngine::on_disconnected(Iteration &it, Conn *c) {
    if (!listen_id_) { // client: the server's reply (or a timeout), only counted
        it.disconnect_events.fetch_add(1);
        return;
    }
    if (it.disconnect_events.fetch_add(1) == 0) {
        it.times.total[kDisconnect].begin();
        say("\tDisconnecting");
    }
    queue_->push([this, c] { server_disconnect(*c); });
}

void CmEngine::handle_event(rdma_cm_event *event) {
    Iteration *it = live_.load();
    Conn *c = event->id ? static_cast<Conn *>(event->id->context) : nullptr;
    auto name = [&] { return std::string(rdma_event_str(event->event)); };
    if (!it && event->event != RDMA_CM_EVENT_TIMEWAIT_EXIT &&
        event->event != RDMA_CM_EVENT_DISCONNECTED) {
        // Nothing is running (a stale connection request from a peer that
        // was still retrying): refuse politely.
        if (event->event == RDMA_CM_EVENT_CONNECT_REQUEST) refuse(event->id);
        return;
    }
    switch (event->event) {
    case RDMA_CM_EVENT_ADDR_RESOLVED:
        it->t(*c, kResolveAddr).finish();
        it->complete(kResolveAddr);
        break;
    case RDMA_CM_EVENT_ROUTE_RESOLVED:
        it->t(*c, kResolveRoute).finish();
        it->complete(kResolveRoute);
        break;
    case RDMA_CM_EVENT_ADDR_ERROR:
        retry_or_fail(*c, event, true);
        break;
    case RDMA_CM_EVENT_ROUTE_ERROR:
        retry_or_fail(*c, event, false);
        break;
    case RDMA_CM_EVENT_CONNECT_REQUEST:
        on_connect_request(event->id);
        break;
    case RDMA_CM_EVENT_CONNECT_RESPONSE:
        queue_->push([this, c] { connect_response(*c); });
        break;
    case RDMA_CM_EVENT_ESTABLISHED:
        it->complete(kConnect);
        break;
    case RDMA_CM_EVENT_DISCONNECTED:
        if (it && c) on_disconnected(*it, c);
        break;
    case RDMA_CM_EVENT_TIMEWAIT_EXIT:
        break;
    case RDMA_CM_EVENT_CONNECT_ERROR:
    case RDMA_CM_EVENT_UNREACHABLE:
    case RDMA_CM_EVENT_REJECTED:
        fatal(failed_event_text(*event, c && c->has_target ? &c->target : nullptr));
        break;
    default:
        fatal("Unhandled event: " + std::to_string(int(event->event)) + " (" + name() + ")");
    }
}

void CmEngine::on_connect_request(rdma_cm_id *id) {
    Iteration &it = *live_.load();
    const uint64_t slot = it.next_slot.fetch_add(1);
    if (slot >= it.conns) {
        refuse(id);
        // Once every connection is established, a surplus request is a late
        // copy of one already served: under load the client's CM resends a
        // request the server answers late, and a copy still in flight when
        // its connection is torn down (out of the CM's tables) arrives as a
        // new request. Refused, and the run goes on; the client's CM has
        // forgotten it and ignores the reject.
        if (it.completed(kConnect).load() >= it.conns) {
            if (it.late_requests.fetch_add(1) == 0)
                say("\tRefused a late copy of a connection request");
            return;
        }
        // cmtime writes past its table here; a surplus before that means the
        // peers disagree on the connection count.
        fatal("more connection requests than the " + std::to_string(it.conns) +
              " expected: do all peers use the same connection count and peer count?");
        return;
    }
    if (slot == 0) {
        it.times.total[kConnect].begin();
        say("\tAccepting");
    }
    Conn &c = it.conn[slot];
    c.id = id;
    id->context = &c;
    queue_->push([this, &c] { accept(c); });
}

void CmEngine::refuse(rdma_cm_id *id) {
    rdma_reject(id, nullptr, 0);
    refused_ = id;
}

void CmEngine::retry_or_fail(Conn &c, rdma_cm_event *event, bool addr) {
    // cmtime retries the address towards an empty destination, so its first
    // ADDR_ERROR is fatal; we retry towards the connection's real target.
    if (c.retries.fetch_sub(1) > 0) {
        const int rc =
            addr ? rdma_resolve_addr(
                       c.id,
                       config_.have_bind ? reinterpret_cast<sockaddr *>(&config_.bind) : nullptr,
                       reinterpret_cast<sockaddr *>(const_cast<sockaddr_storage *>(&c.target)),
                       config_.timeout_ms)
                 : rdma_resolve_route(c.id, config_.timeout_ms);
        if (rc == 0) return;
    }
    fatal(std::string(addr ? "RDMA_CM_EVENT_ADDR_ERROR" : "RDMA_CM_EVENT_ROUTE_ERROR") +
          ", error: " + std::to_string(event->status) + " (after " +
          std::to_string(config_.retries) + " retries)");
}

} // namespace cmdbench::cmtime
