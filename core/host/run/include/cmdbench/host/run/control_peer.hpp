// barrier/exchange for one run over a control channel, and the RunEnd
// handshake that closes the run on both sides.
#pragma once
#include "cmdbench/control/control.hpp"
#include "cmdbench/host/plugins/host_services.hpp"

#include <optional>

namespace cmdbench {

class ControlPeer : public PeerLink {
  public:
    // `grace_ms` bounds waits when the run has no deadline of its own.
    ControlPeer(control::Channel &channel, std::string peer_label)
        : ch_(channel), label_(std::move(peer_label)) {}

    int barrier(cmdbench_ctx *ctx, const std::string &name) override;
    int exchange(cmdbench_ctx *ctx, const void *data, uint32_t len, void *buf, uint32_t cap,
                 uint32_t *got) override;

    // Sends our RunEnd and returns the peer's (read now, or already seen
    // during a barrier). Messages the peer sent for steps we never reached
    // are skipped. Throws control::ControlError.
    control::RunEnd finish(const control::RunEnd &ours, int timeout_ms);

  private:
    // Reads the next message for a step; a RunEnd from the peer ends the step.
    std::optional<control::Message> next_step_message(cmdbench_ctx *ctx, control::MsgType want);

    control::Channel &ch_;
    std::string label_;
    std::optional<control::RunEnd> peer_end_;
    bool channel_broken_ = false;
};

} // namespace cmdbench
