// barrier/exchange for one run over a control channel, and the RunEnd
// handshake that closes the run on both sides.
#pragma once
#include "cmdbench/control/control.hpp"
#include "cmdbench/host/plugins/host_services.hpp"

#include <mutex>
#include <optional>

namespace cmdbench {

class ControlPeer : public PeerLink {
  public:
    ControlPeer(control::Channel &channel, std::string peer_label)
        : ch_(channel), label_(std::move(peer_label)) {}

    int barrier(cmdbench_ctx *ctx, const std::string &name) override;
    int exchange(cmdbench_ctx *ctx, const void *data, uint32_t len, void *buf, uint32_t cap,
                 uint32_t *got) override;

    // The peer closed the control channel, or sent a RunEnd that is not a
    // success while this side's test still runs (from the watchdog's
    // thread; looks without reading, see PeerLink::lost).
    PeerLoss lost() override;
    // The test's next read of a message, and the channel: its close, and a
    // new message when none is waiting unread (a RunEnd behind an unread
    // message shows only once the test has read that one).
    bool wake_on(std::vector<pollfd> &fds) override;

    // Sends our RunEnd and returns the peer's (read now, or already seen
    // during a barrier). Messages the peer sent for steps we never reached
    // are skipped. Throws control::ControlError.
    control::RunEnd finish(const control::RunEnd &ours, int timeout_ms);

  private:
    // Reads the next message for a step; a RunEnd from the peer ends the
    // step. Without a message, `rc` is the step's status (CMDBENCH_ERR, or
    // CMDBENCH_ERR_CANCELLED when the run was cancelled meanwhile).
    std::optional<control::Message> next_step_message(cmdbench_ctx *ctx, control::MsgType want,
                                                      int &rc);
    // Waits for the next message until the run's deadline: false as soon
    // as the run is cancelled (Ctrl-C, the watchdog) instead.
    bool await_message(cmdbench_ctx *ctx);

    control::Channel &ch_;
    std::string label_;
    std::optional<control::RunEnd> peer_end_;
    bool channel_broken_ = false;
    // Held while the test's thread reads the channel: lost() peeks only
    // between two messages, never into the middle of one.
    std::mutex reading_;
    // Set after each message the test's thread read (wakes the watchdog).
    WakeEvent read_event_;
    // What lost() last saw: a message waiting unread (the watchdog's own).
    bool unread_ = false;
};

} // namespace cmdbench
