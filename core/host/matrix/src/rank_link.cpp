#include "cmdbench/host/matrix/rank_link.hpp"

#include "cmdbench/host/matrix/job.hpp"

#include <chrono>
#include <cmath>

namespace cmdbench {
namespace {

using Json = nlohmann::json;

int ms(double seconds) {
    return int(std::max(0.0, std::ceil(seconds * 1000)));
}

control::Channel join(const std::string &host, uint16_t port, const std::string &rank0) {
    try {
        return control::Channel::connect(host, port, 10000);
    } catch (const control::ControlError &e) {
        throw JobError("cannot reach " + rank0 + " at " + host + ":" + std::to_string(port) + ": " +
                       e.what());
    }
}

} // namespace

RankLink::RankLink(const std::string &host, uint16_t port, const std::string &token, int rank,
                   std::string rank0, double start_timeout_s)
    : ch_(join(host, port, rank0)), rank0_(std::move(rank0)) {
    send(Json{{"t", "join"}, {"rank", rank}, {"token", token}});
    start_ = receive(start_timeout_s);
    if (start_["t"] != "start") lost("it did not start this rank");
    beater_ = std::thread([this] { beat_loop(); });
}

RankLink::~RankLink() {
    {
        std::lock_guard<std::mutex> lock(beat_mu_);
        stop_beating_ = true;
    }
    beat_cv_.notify_all();
    beater_.join();
}

void RankLink::lost(const std::string &what) const {
    throw JobError("lost the link to " + rank0_ + " (gone, or it gave up on this rank): " + what);
}

void RankLink::send(const Json &j) {
    std::lock_guard<std::mutex> lock(send_mu_);
    try {
        ch_.send(round_frame(j), 10000);
    } catch (const control::ControlError &e) {
        lost(e.what());
    }
}

Json RankLink::receive(double timeout_s) {
    try {
        return round_json(ch_.recv(ms(timeout_s)));
    } catch (const control::ControlError &e) {
        lost(e.what());
    }
}

void RankLink::beat_loop() {
    std::unique_lock<std::mutex> lock(beat_mu_);
    const auto every = std::chrono::milliseconds(ms(kBeatSeconds));
    while (!beat_cv_.wait_for(lock, every, [this] { return stop_beating_; })) {
        try {
            send(Json{{"t", "beat"}});
        } catch (const JobError &) {
            return; // the main thread finds out at its next word
        }
    }
}

void RankLink::send_result(const std::string &doc) {
    send(Json{{"t", "result"}, {"doc", doc}});
}

RoundWord RankLink::end_round(size_t seq, const std::string &word, double timeout_s) {
    send(Json{{"t", "done"}, {"seq", seq}, {"word", word}});
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms(timeout_s));
    for (;;) {
        const double left =
            std::chrono::duration<double>(end - std::chrono::steady_clock::now()).count();
        const Json j = receive(std::max(0.001, left));
        if (j["t"] == "go" && j.value("seq", size_t(0)) == seq) {
            try {
                return round_word_from(j);
            } catch (const control::ControlError &e) {
                lost(e.what());
            }
        }
    }
}

int RankLink::wait_end(double timeout_s) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms(timeout_s));
    for (;;) {
        const double left =
            std::chrono::duration<double>(end - std::chrono::steady_clock::now()).count();
        const Json j = receive(std::max(0.001, left));
        if (j["t"] == "end") return j.value("status", 1);
    }
}

} // namespace cmdbench
