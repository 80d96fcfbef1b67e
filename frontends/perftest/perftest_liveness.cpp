// Heartbeats both ways every 500 ms (see perftest_liveness.hpp).
#include "perftest_liveness.hpp"

#include <chrono>

namespace cmdbench::perftest_frontend {
namespace {

constexpr int kBeatMs = 500;

uint64_t now_ms() {
    return uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now().time_since_epoch())
                        .count());
}

} // namespace

Liveness::Liveness(std::unique_ptr<control::Channel> channel, std::string peer_label)
    : ch_(std::move(channel)), label_(std::move(peer_label)) {
    thread_ = std::thread([this] { loop(); });
}

Liveness::~Liveness() {
    stop_ = true;
    thread_.join();
}

std::string Liveness::verdict() const {
    std::lock_guard<std::mutex> lock(mu_);
    return verdict_;
}

void Liveness::loop() {
    uint64_t heard = now_ms(), sent = 0;
    auto give_up = [&](const std::string &why) {
        std::lock_guard<std::mutex> lock(mu_);
        verdict_ = why;
    };
    while (!stop_) {
        try {
            if (now_ms() - sent >= kBeatMs) {
                ch_->send(control::make_string(control::MsgType::Barrier, "alive"), kBeatMs);
                sent = now_ms();
            }
            if (ch_->wait_readable(100)) {
                ch_->recv(kBeatMs);
                heard = now_ms();
            }
        } catch (const control::ControlError &e) {
            return give_up(label_ + " is gone (" + e.what() + ")");
        }
        if (now_ms() - heard > uint64_t(kSilentMs))
            return give_up(label_ + " said nothing for " + std::to_string(kSilentMs / 1000) +
                           " s: stopped or hung");
    }
}

PeerLoss WatchedPeer::lost() {
    PeerLoss loss = inner_.lost();
    if (loss.why.empty() && live_) loss.why = live_->verdict();
    return loss;
}

} // namespace cmdbench::perftest_frontend
