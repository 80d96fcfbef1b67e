// Private state of CmEngine: one connection slot and one test iteration.
#pragma once
#include "cmdbench/cmtime/cm_engine.hpp"

#include <cerrno>
#include <cmdbench/plugin-support/run_error.hpp>
#include <cstring>
#include <stdexcept>

namespace cmdbench::cmtime {

struct CmEngine::Conn {
    size_t index = 0;
    rdma_cm_id *id = nullptr;
    ibv_qp *qp = nullptr;
    // Client: its server, held by value: the event thread may still report
    // on this connection after the caller's target list is gone.
    sockaddr_storage target{};
    bool has_target = false;
    std::atomic<int> retries{0};
    std::atomic<bool> server_disconnected{false};
};

struct CmEngine::Iteration {
    Iteration(uint64_t n, QpMode m) : conns(n), mode(m), times(n), conn(new Conn[n]) {
        for (uint64_t i = 0; i < n; ++i)
            conn[i].index = i;
        next_qpn.store(m.fake_qpn);
        for (auto &c : completion)
            c.wake = &wake;
    }
    Interval &t(const Conn &c, int step) { return times.conn[c.index].step[step]; }
    // Counts one connection done with `step` (see StepCompletion).
    void complete(int step, int also = -1) {
        completion[step].complete(conns, times.total[step],
                                  also >= 0 ? &times.total[also] : nullptr);
    }
    std::atomic<uint64_t> &completed(int step) { return completion[step].done; }

    uint64_t conns;
    QpMode mode;
    StepTimes times;
    std::unique_ptr<Conn[]> conn;
    Wakeup wake; // the main thread waits on one step at a time
    StepCompletion completion[kStepCount];
    std::atomic<uint64_t> next_slot{0};         // server: requests seen
    std::atomic<uint64_t> late_requests{0};     // server: refused late copies
    std::atomic<uint64_t> disconnect_events{0}; // DISCONNECTED seen
    std::atomic<uint32_t> next_qpn{0};
    uint64_t window = 0; // client: most requests outstanding, 0 = no limit
    std::atomic<bool> accepting{false};
};

// "<call>: <strerror(errno)>", thrown as a runtime_error.
[[noreturn]] inline void fail_call(const char *call) {
    throw std::runtime_error(std::string(call) + ": " + cmdbench::support::errno_text(errno));
}

} // namespace cmdbench::cmtime
