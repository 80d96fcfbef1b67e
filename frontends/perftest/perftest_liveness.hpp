// A second TCP connection between the sides that carries only heartbeats, so
// that a peer that is stopped (SIGSTOP, a debugger) or hung is noticed in
// seconds: its kernel keeps the control connection open and, with rxe, even
// keeps answering RDMA, but its process no longer says it is alive.
#pragma once
#include "cmdbench/control/control.hpp"
#include "cmdbench/host/plugins/host_services.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace cmdbench::perftest_frontend {

// Silence from the peer that ends the run.
constexpr int kSilentMs = 6000;

class Liveness {
  public:
    Liveness(std::unique_ptr<control::Channel> channel, std::string peer_label);
    ~Liveness();
    Liveness(const Liveness &) = delete;
    Liveness &operator=(const Liveness &) = delete;
    // Why the peer is no longer there ("the server (ADDR) said nothing for
    // 6 s: stopped or hung"), or "".
    std::string verdict() const;

  private:
    void loop();
    std::unique_ptr<control::Channel> ch_;
    std::string label_;
    std::atomic<bool> stop_{false};
    mutable std::mutex mu_;
    std::string verdict_;
    std::thread thread_;
};

// The control channel's barrier and exchange, and the loss of the peer as
// either channel sees it.
class WatchedPeer : public PeerLink {
  public:
    WatchedPeer(PeerLink &inner, const Liveness *live) : inner_(inner), live_(live) {}
    int barrier(cmdbench_ctx *ctx, const std::string &name) override {
        return inner_.barrier(ctx, name);
    }
    int exchange(cmdbench_ctx *ctx, const void *data, uint32_t len, void *buf, uint32_t cap,
                 uint32_t *got) override {
        return inner_.exchange(ctx, data, len, buf, cap, got);
    }
    PeerLoss lost() override;
    // The control channel's events, and a look every 100 ms for the
    // heartbeats' silence, which no event announces.
    bool wake_on(std::vector<pollfd> &fds) override {
        inner_.wake_on(fds);
        return false;
    }

  private:
    PeerLink &inner_;
    const Liveness *live_;
};

} // namespace cmdbench::perftest_frontend
