// The RDMA CM side of cmtime: one event
// channel with its event thread, a work queue, the per-connection state and
// one iteration of the client or server steps. Knows nothing of the host
// ABI: the caller supplies the barriers and the stop check (deadline,
// cancel), so cm-steps and the cmdbench-cmtime front end share it.
#pragma once
#include "cmdbench/cmtime/step_table.hpp"
#include "cmdbench/cmtime/work_queue.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <rdma/rdma_cma.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <vector>

namespace cmdbench::cmtime {

struct EngineConfig {
    unsigned threads = 1;    // -n
    int retries = 2;         // -r
    int timeout_ms = 2000;   // -t
    bool have_bind = false;  // -b / bind_address given
    sockaddr_storage bind{}; // port 0
    // How long the server waits for all DISCONNECTED events before it
    // disconnects the rest itself (cmtime: 60 s).
    int disconnect_guard_ms = 60000;
    // Client: most connects (disconnects) outstanding at a time, that is
    // issued and not yet answered by the server; 0 = no limit (cmtime);
    // kMaxPendingAuto = kPendingPerServer for every server the client
    // connects to. A request the server answers later than the CM's
    // response timeout (about 4 s) is sent again, and the copies cost both
    // sides: a burst of 10,000 at an emulated server took twice as long as
    // a window of 256, with thousands of resends, and the CM gives up on a
    // request unanswered after its retries (about 70 s). Connect:
    // RDMA_CM_EVENT_UNREACHABLE, -110; disconnect: the server's 60 s guard.
    // A server's CM answers one request at a time, so a few in flight per
    // server keep it busy; 256 leaves ample room on fast links.
    uint64_t max_pending = kMaxPendingAuto;
    static constexpr uint64_t kMaxPendingAuto = UINT64_MAX;
    static constexpr uint64_t kPendingPerServer = 256;
};

// What one iteration uses for QPs: real ones (fake_qpn == 0), or simulated
// ones announcing fake_qpn, fake_qpn+1, ... with a sleep of `delay_us` for
// every QP create/modify.
struct QpMode {
    uint32_t fake_qpn = 0;
    uint32_t delay_us = 0;
};

// Two barriers of our own, besides cmtime's 0, 7, 12 and 14: the clients
// enter them when their own connect (disconnect) step is over, the servers
// keep them pending while they still wait for ESTABLISHED (DISCONNECTED)
// events, so a client that fails meanwhile ends the server's wait at once.
// Only then does everybody enter 12 (14), which thus keeps cmtime's meaning:
// every instance, servers included, is done. (Releasing 12 before the
// server's last ESTABLISHED let clients disconnect connections whose RTU the
// server had not yet seen; under load a lost RTU is then never resent and
// the server's REP times out: RDMA_CM_EVENT_UNREACHABLE, -110.)
constexpr int kBarrierClientsConnected = 112;
constexpr int kBarrierClientsDisconnected = 114;

// The caller's side of a run: step barriers with cmtime's values (0, 7, 12,
// 14) and ours (above), and a check that throws once the run must stop.
struct EngineHooks {
    std::function<void(int value)> barrier;
    std::function<void(const char *what)> check_stop;
    std::function<void(const std::string &line)> progress; // may be empty
};

class CmEngine {
  public:
    CmEngine(const EngineConfig &config, EngineHooks hooks);
    ~CmEngine();
    CmEngine(const CmEngine &) = delete;
    CmEngine &operator=(const CmEngine &) = delete;

    // Server: create, bind and listen on the listening id (port 0 = dynamic).
    // Returns the bound address with the kernel's port.
    sockaddr_storage listen();

    // One client iteration: `targets[c]` is conn c's server address.
    StepReport run_client(const std::vector<sockaddr_storage> &targets, QpMode mode);
    // One server iteration accepting `conns` connections.
    StepReport run_server(uint64_t conns, QpMode mode);

  private:
    struct Conn;
    struct Iteration;

    // The client's steps (cm_iteration.cpp), on the iteration under way.
    void client_create_ids();
    void client_bind_addrs();
    // The client's window of outstanding requests for `targets` (0: none).
    uint64_t pending_window(const std::vector<sockaddr_storage> &targets) const;
    void client_connect_all();
    void client_disconnect_all();
    // A step the main thread runs on every connection in turn: `call`
    // returns the RDMA call's result (`call_name` in the error); the
    // connection's `starts_too` step (-1: none) starts with it.
    template <typename Call>
    void main_thread_step(int step, int starts_too, const char *line, const char *call_name,
                          Call call);
    // Runs op on every connection, in connection order, on the workers.
    void on_every_conn(std::function<void(Conn &)> op);
    // A step the workers run on every connection: `line` on the console,
    // the step's total from now until the last connection is done.
    void worker_step(int step, const char *line, const char *what, std::function<void(Conn &)> op);

    void event_loop();
    void handle_event(rdma_cm_event *event);
    void on_connect_request(rdma_cm_id *id);
    // Rejects a connection request; its id is destroyed once the event is
    // acknowledged (event thread only).
    void refuse(rdma_cm_id *id);
    void retry_or_fail(Conn &c, rdma_cm_event *event, bool addr);

    void resolve_addr(Conn &c);
    void resolve_route(Conn &c);
    void create_qp(Conn &c);
    void modify_qp(Conn &c, int state, int attr_step, int modify_step);
    void connect_response(Conn &c);
    void accept(Conn &c);
    void client_disconnect(Conn &c);
    void server_disconnect(Conn &c);
    // A DISCONNECTED event on `c` during iteration `it`.
    void on_disconnected(Iteration &it, Conn *c);
    void destroy_all();
    rdma_conn_param conn_param(Conn &c);

    void fatal(const std::string &why);
    // Throws the first fatal error (event thread) or failed work item.
    void throw_if_failed();
    // Until every connection of the iteration is done with `step`, woken
    // by the last one; `also` (may be empty) runs with every stop check.
    void wait_step(int step, const char *what, const std::function<void()> &also = {});
    // Until done >= want, polling: for windows of outstanding requests.
    void wait(std::atomic<uint64_t> &done, uint64_t want, const char *what);
    // The stop check of both waits.
    void check_stop(const char *what, const std::function<void()> &also);
    void say(const char *line);

    EngineConfig config_;
    EngineHooks hooks_;
    rdma_event_channel *channel_ = nullptr;
    rdma_cm_id *listen_id_ = nullptr;
    std::unique_ptr<Iteration> it_;          // owned by the main thread
    std::atomic<Iteration *> live_{nullptr}; // what the event thread sees
    std::mutex verbs_mu_;
    ibv_pd *pd_ = nullptr;
    ibv_cq *cq_ = nullptr;
    ibv_context *verbs_ = nullptr;
    std::mutex fatal_mu_;
    std::string fatal_;
    std::atomic<bool> failed_{false};
    std::atomic<bool> stopping_{false};
    std::unique_ptr<WorkQueue> queue_;
    std::thread events_;
    rdma_cm_id *refused_ = nullptr; // event thread only, see refuse()
};

// "no RDMA device" when ibv_get_device_list finds none, else empty.
std::string rdma_device_problem();

} // namespace cmdbench::cmtime
