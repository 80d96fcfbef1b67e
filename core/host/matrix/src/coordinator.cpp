#include "cmdbench/host/matrix/coordinator.hpp"

#include "cmdbench/control/control_auth.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <poll.h>
#include <sys/socket.h>

namespace cmdbench {
namespace {

using Json = nlohmann::json;

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

int ms(double seconds) {
    return int(std::max(0.0, std::ceil(seconds * 1000)));
}

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", s);
    return buf;
}

} // namespace

Coordinator::Coordinator(const std::string &host, int size, double dead_after_s)
    : listener_(host, 0), token_(control::random_token()), dead_after_(dead_after_s),
      peers_(size_t(size)) {}

Coordinator::~Coordinator() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stopping_ = true;
    }
    if (reader_.joinable()) reader_.join();
}

void Coordinator::start(double timeout_s, ResultFn on_result, GoneFn on_gone,
                        const StartFn &start_of) {
    on_result_ = std::move(on_result);
    on_gone_ = std::move(on_gone);
    accept_all(timeout_s);
    {
        std::lock_guard<std::mutex> lock(mu_);
        for (size_t r = 1; r < peers_.size(); ++r) {
            if (peers_[r].gone) continue;
            Json j = start_of ? start_of(int(r)) : Json::object();
            j["t"] = "start";
            try {
                peers_[r].ch->send(round_frame(j), 5000);
            } catch (const control::ControlError &e) {
                mark_gone(int(r), std::string("rank 0 could not reach it: ") + e.what());
            }
        }
    }
    // Nothing was read while the others were awaited: count from now.
    for (Peer &p : peers_)
        p.last_heard = now_s();
    reader_ = std::thread([this] { read_loop(); });
}

void Coordinator::accept_all(double timeout_s) {
    const double end = now_s() + timeout_s;
    size_t joined = 0;
    while (joined + 1 < peers_.size() && now_s() < end) {
        std::optional<control::Channel> ch = listener_.accept_within(ms(end - now_s()));
        if (!ch) break;
        try {
            const Json j = round_json(ch->recv(ms(std::min(5.0, end - now_s()))));
            const int rank = j.value("rank", -1);
            if (j.value("t", "") != "join" || j.value("token", "") != token_ || rank <= 0 ||
                size_t(rank) >= peers_.size() || peers_[size_t(rank)].ch)
                continue; // not one of ours, or a second try: dropped
            Peer &p = peers_[size_t(rank)];
            p.ch = std::make_unique<control::Channel>(std::move(*ch));
            p.last_heard = now_s();
            ++joined;
        } catch (const control::ControlError &) {
        }
    }
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t r = 1; r < peers_.size(); ++r)
        if (!peers_[r].ch)
            mark_gone(int(r),
                      "it did not reach rank 0 within " + seconds_text(timeout_s) +
                          " s of the wire-up",
                      true);
}

void Coordinator::read_loop() {
    for (;;) {
        std::vector<pollfd> fds;
        std::vector<int> ranks;
        {
            std::lock_guard<std::mutex> lock(mu_);
            if (stopping_) return;
            const double now = now_s();
            for (size_t r = 1; r < peers_.size(); ++r) {
                Peer &p = peers_[r];
                if (p.gone) continue;
                if (now - p.last_heard > dead_after_) {
                    mark_gone(int(r),
                              "no word from it for " + seconds_text(dead_after_) +
                                  " s (stopped or stuck; [matrix] dead_after)",
                              true);
                    continue;
                }
                fds.push_back({p.ch->fd(), POLLIN, 0});
                ranks.push_back(int(r));
            }
        }
        std::vector<GoneRank> news;
        {
            std::lock_guard<std::mutex> lock(mu_);
            news.swap(to_announce_);
        }
        for (const GoneRank &g : news)
            if (on_gone_) on_gone_(g);
        if (fds.empty()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            continue;
        }
        if (poll(fds.data(), fds.size(), 200) <= 0) continue;
        for (size_t i = 0; i < fds.size(); ++i)
            if (fds[i].revents) read_one(ranks[i]);
    }
}

// One frame from `rank` (its channel is read by this thread alone).
void Coordinator::read_one(int rank) {
    Peer &p = peers_[size_t(rank)];
    Json j;
    try {
        j = round_json(p.ch->recv(5000));
    } catch (const control::ControlError &e) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!p.gone)
            mark_gone(rank,
                      std::string("its link to rank 0 broke (killed or crashed?): ") + e.what());
        return;
    }
    const std::string kind = j["t"].get<std::string>();
    if (kind == "result" && j.contains("doc") && j["doc"].is_string()) {
        if (on_result_) on_result_(rank, j["doc"].get<std::string>());
    }
    std::lock_guard<std::mutex> lock(mu_);
    p.last_heard = now_s();
    if (kind == "done") {
        p.done_seq = j.value("seq", size_t(0)) + 1;
        p.word = j.value("word", std::string("go"));
        cv_.notify_all();
    }
}

void Coordinator::mark_gone(int rank, const std::string &why, bool silent) {
    Peer &p = peers_[size_t(rank)];
    p.gone = true;
    // It learns it is out (a stopped rank, when it wakes) and this side's
    // reads end; the channel itself stays until the end, as the reader may
    // still hold it.
    if (p.ch) ::shutdown(p.ch->fd(), SHUT_RDWR);
    GoneRank g{rank, why, seq_, silent};
    gone_.push_back(g);
    std::sort(gone_.begin(), gone_.end(),
              [](const GoneRank &a, const GoneRank &b) { return a.rank < b.rank; });
    to_announce_.push_back(g);
    cv_.notify_all();
}

bool Coordinator::round_done(size_t seq) const {
    for (size_t r = 1; r < peers_.size(); ++r)
        if (!peers_[r].gone && peers_[r].done_seq <= seq) return false;
    return true;
}

void Coordinator::send_all(const control::Message &m) {
    for (size_t r = 1; r < peers_.size(); ++r) {
        Peer &p = peers_[r];
        if (p.gone) continue;
        try {
            p.ch->send(m, 5000);
        } catch (const control::ControlError &e) {
            mark_gone(int(r), std::string("rank 0 could not reach it: ") + e.what());
        }
    }
}

RoundWord Coordinator::end_round(size_t seq, const std::string &word,
                                 std::chrono::steady_clock::time_point began, double timeout_s) {
    std::unique_lock<std::mutex> lock(mu_);
    seq_ = seq;
    cv_.wait_until(lock, began + std::chrono::milliseconds(ms(timeout_s)),
                   [&] { return round_done(seq); });
    for (size_t r = 1; r < peers_.size(); ++r)
        if (!peers_[r].gone && peers_[r].done_seq <= seq)
            mark_gone(int(r),
                      "it had not finished the round " + seconds_text(timeout_s) +
                          " s after it began (stuck; the run's timeout + 35 s)",
                      true);
    RoundWord w;
    w.seq = seq;
    if (word.rfind("stop:", 0) == 0) w.stop = word.substr(5);
    for (size_t r = 1; r < peers_.size() && w.stop.empty(); ++r)
        if (!peers_[r].gone && peers_[r].word.rfind("stop:", 0) == 0)
            w.stop = peers_[r].word.substr(5);
    w.gone = gone_;
    send_all(round_frame(round_word_json(w)));
    w.gone = gone_; // and any the sending found
    seq_ = seq + 1;
    return w;
}

void Coordinator::finish(int status) {
    {
        std::lock_guard<std::mutex> lock(mu_);
        send_all(round_frame(Json{{"t", "end"}, {"status", status}}));
        stopping_ = true;
    }
    if (reader_.joinable()) reader_.join();
}

std::vector<GoneRank> Coordinator::gone() const {
    std::lock_guard<std::mutex> lock(mu_);
    return gone_;
}

} // namespace cmdbench
