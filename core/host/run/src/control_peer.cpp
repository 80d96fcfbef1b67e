#include "cmdbench/host/run/control_peer.hpp"

#include "cmdbench/control/printable_text.hpp"

#include <algorithm>
#include <cstring>
#include <poll.h>

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

// Ctrl-C, or the watchdog's cancel (the deadline is the wait's own bound).
bool stop_requested(const cmdbench_ctx *ctx) {
    return ctx->cancelled.load() || (ctx->interrupted && ctx->interrupted->load());
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

bool ControlPeer::await_message(cmdbench_ctx *ctx) {
    const int total_ms = wait_ms(ctx);
    const uint64_t until = monotonic_ns() + uint64_t(total_ms) * 1000000;
    // The channel, and the events that say the run must stop: one poll()
    // waits for either, with no wake-up in between (wake_event.hpp).
    std::vector<pollfd> fds{{ch_.fd(), POLLIN, 0}};
    add_stop_events(*ctx, fds);
    for (;;) {
        const uint64_t now = monotonic_ns();
        if (now >= until)
            throw ControlError("control channel: timed out after " + std::to_string(total_ms) +
                               " ms waiting for " + ch_.peer_name());
        const uint64_t left_ms = (until - now + 999999) / 1000000;
        // A hang-up or error counts as readable: the read says which.
        if (poll_events(fds, int(left_ms)) > 0 && fds[0].revents) return true;
        if (stop_requested(ctx)) return false;
    }
}

std::optional<Message> ControlPeer::next_step_message(cmdbench_ctx *ctx, MsgType want, int &rc) {
    rc = CMDBENCH_ERR;
    if (peer_end_) {
        fail(ctx,
             label_ + " ended the run: " + (peer_end_->error.empty() ? "done" : peer_end_->error));
        return std::nullopt;
    }
    // Declared before the lock, so it runs after the lock is released: the
    // watchdog that it wakes can then peek at what follows (lost()).
    struct WakeWatchdog {
        const WakeEvent &read;
        ~WakeWatchdog() { read.set(); }
    } wake_watchdog{read_event_};
    std::lock_guard<std::mutex> lock(reading_);
    try {
        if (!await_message(ctx)) {
            rc = CMDBENCH_ERR_CANCELLED; // the test says why it stops, or the host does
            return std::nullopt;
        }
        Message m = ch_.recv(wait_ms(ctx));
        if (m.type == MsgType::RunEnd) {
            peer_end_ = peer_run_end(m);
            fail(ctx, label_ + " ended the run: " +
                          (peer_end_->error.empty() ? "done" : peer_end_->error));
            cancel_run(*ctx);
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
        cancel_run(*ctx);
        fail(ctx, e.what());
        return std::nullopt;
    }
}

PeerLoss ControlPeer::lost() {
    read_event_.drain(); // before looking: a read after this sets it again
    {
        // A RunEnd waiting while the test still runs: the peer is out of the
        // run. Only between messages: the test's thread may be in one.
        std::unique_lock<std::mutex> lock(reading_, std::try_to_lock);
        std::optional<Message> m;
        if (lock.owns_lock()) m = ch_.peek();
        if (m && m->type == MsgType::RunEnd) {
            try {
                const control::RunEnd end = peer_run_end(*m);
                if (end.status != CMDBENCH_OK)
                    return {label_ +
                                " ended the run: " + (end.error.empty() ? "failed" : end.error),
                            true};
            } catch (const ControlError &) {
                // unreadable: the test's own read of it will say so
            }
        }
        // Something the test has yet to read (or is reading): nothing new
        // can show before it does, so wake_on waits for its read instead.
        unread_ = !lock.owns_lock() || ch_.wait_readable(0);
    }
    if (ch_.hung_up()) return {label_ + " closed the control channel"};
    return {};
}

bool ControlPeer::wake_on(std::vector<pollfd> &fds) {
    fds.push_back({read_event_.fd(), POLLIN, 0});
    fds.push_back({ch_.fd(), short(unread_ ? POLLRDHUP : POLLIN | POLLRDHUP), 0});
    return true;
}

int ControlPeer::barrier(cmdbench_ctx *ctx, const std::string &name) {
    try {
        ch_.send(control::make_string(MsgType::Barrier, name), wait_ms(ctx));
    } catch (const ControlError &e) {
        channel_broken_ = true;
        fail(ctx, e.what());
        return CMDBENCH_ERR;
    }
    int rc = CMDBENCH_OK;
    auto m = next_step_message(ctx, MsgType::Barrier, rc);
    if (!m) return rc;
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
    int rc = CMDBENCH_OK;
    auto m = next_step_message(ctx, MsgType::Exchange, rc);
    if (!m) return rc;
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
    std::lock_guard<std::mutex> lock(reading_);
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
