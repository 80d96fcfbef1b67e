#include "cmdbench/host/run/control_peer.hpp"

#include "cmdbench/control/printable_text.hpp"

#include <algorithm>
#include <cstring>

namespace cmdbench {

using control::ControlError;
using control::Message;
using control::MsgType;

namespace {

int wait_ms(cmdbench_ctx *ctx) {
    // Bounded by the run's deadline; at least a little, so a run whose
    // deadline just passed still reads what the peer already sent.
    return int(std::clamp<int64_t>(remaining_ms(*ctx), 100, 24 * 3600 * 1000));
}

void fail(cmdbench_ctx *ctx, const std::string &msg) {
    host_services()->set_error(ctx, msg.c_str());
}

// The peer's RunEnd, its error text safe to print (it ends up in logs and tables).
control::RunEnd peer_run_end(const Message &m) {
    control::RunEnd e = control::parse_run_end(m);
    e.error = printable_text(e.error);
    return e;
}

} // namespace

std::optional<Message> ControlPeer::next_step_message(cmdbench_ctx *ctx, MsgType want) {
    if (peer_end_) {
        fail(ctx,
             label_ + " ended the run: " + (peer_end_->error.empty() ? "done" : peer_end_->error));
        return std::nullopt;
    }
    try {
        Message m = ch_.recv(wait_ms(ctx));
        if (m.type == MsgType::RunEnd) {
            peer_end_ = peer_run_end(m);
            fail(ctx, label_ + " ended the run: " +
                          (peer_end_->error.empty() ? "done" : peer_end_->error));
            ctx->cancelled = true;
            return std::nullopt;
        }
        if (m.type != want) {
            fail(ctx, "control channel: unexpected message type " +
                          std::to_string(unsigned(m.type)) + " from " + label_);
            return std::nullopt;
        }
        return m;
    } catch (const ControlError &e) {
        channel_broken_ = true;
        ctx->cancelled = true;
        fail(ctx, e.what());
        return std::nullopt;
    }
}

int ControlPeer::barrier(cmdbench_ctx *ctx, const std::string &name) {
    try {
        ch_.send(control::make_string(MsgType::Barrier, name), wait_ms(ctx));
    } catch (const ControlError &e) {
        channel_broken_ = true;
        fail(ctx, e.what());
        return CMDBENCH_ERR;
    }
    auto m = next_step_message(ctx, MsgType::Barrier);
    if (!m) return CMDBENCH_ERR;
    std::string theirs = control::parse_string(*m);
    if (theirs != name) {
        fail(ctx, "barrier mismatch: this side is at '" + name + "', " + label_ + " at '" +
                      printable_text(theirs) + "'");
        return CMDBENCH_ERR;
    }
    return CMDBENCH_OK;
}

int ControlPeer::exchange(cmdbench_ctx *ctx, const void *data, uint32_t len, void *buf,
                          uint32_t cap, uint32_t *got) {
    try {
        control::Writer w;
        w.bytes(data, len);
        ch_.send(Message{MsgType::Exchange, w.take()}, wait_ms(ctx));
    } catch (const ControlError &e) {
        channel_broken_ = true;
        fail(ctx, e.what());
        return CMDBENCH_ERR;
    }
    auto m = next_step_message(ctx, MsgType::Exchange);
    if (!m) return CMDBENCH_ERR;
    try {
        control::Reader r(m->payload);
        std::vector<uint8_t> bytes = r.bytes();
        r.finish();
        if (bytes.size() > cap) {
            fail(ctx, "exchange: " + label_ + " sent " + std::to_string(bytes.size()) +
                          " bytes, more than the " + std::to_string(cap) + " expected");
            return CMDBENCH_ERR;
        }
        if (!bytes.empty()) std::memcpy(buf, bytes.data(), bytes.size());
        if (got) *got = uint32_t(bytes.size());
    } catch (const ControlError &e) {
        fail(ctx, e.what());
        return CMDBENCH_ERR;
    }
    return CMDBENCH_OK;
}

control::RunEnd ControlPeer::finish(const control::RunEnd &ours, int timeout_ms) {
    if (channel_broken_) throw ControlError("control channel to " + label_ + " is broken");
    ch_.send(control::make_run_end(ours), timeout_ms);
    while (!peer_end_) {
        Message m = ch_.recv(timeout_ms);
        if (m.type == MsgType::RunEnd)
            peer_end_ = peer_run_end(m);
        else if (m.type != MsgType::Barrier && m.type != MsgType::Exchange)
            throw ControlError("control channel: unexpected message type " +
                               std::to_string(unsigned(m.type)) + " from " + label_ +
                               " at the end of a run");
    }
    return *peer_end_;
}

} // namespace cmdbench
