// Rank 0's side of the matrix link (round_link.hpp): every other rank's
// connection, what they say, and which of them are gone. A thread reads the
// links while rank 0 runs its own pairs, so a result is rank 0's as soon as
// the pair ends and a dead rank is noticed at once (killed: its connection
// closes) or after `dead_after` seconds without a word (stopped, stuck).
#pragma once
#include "cmdbench/control/control.hpp"
#include "cmdbench/host/matrix/round_link.hpp"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cmdbench {

class Coordinator {
  public:
    // Called on the coordinator's thread: a result document one rank sent,
    // and a rank found gone (once per rank).
    using ResultFn = std::function<void(int rank, const std::string &doc)>;
    using GoneFn = std::function<void(const GoneRank &)>;
    // What each rank is told once all have joined: {"t": "start", ...}.
    using StartFn = std::function<nlohmann::json(int rank)>;

    // Listens on `host` (an ephemeral port) for the other `size - 1` ranks.
    Coordinator(const std::string &host, int size, double dead_after_s);
    ~Coordinator();
    Coordinator(const Coordinator &) = delete;
    Coordinator &operator=(const Coordinator &) = delete;

    uint16_t port() const { return listener_.port(); }
    const std::string &token() const { return token_; }

    // Takes every rank's connection, waiting at most timeout_s (a rank not
    // there by then is gone), tells each its start, then starts reading them.
    void start(double timeout_s, ResultFn on_result, GoneFn on_gone, const StartFn &start_of);
    // Rank 0 has ended round `seq` with `word` ("go" or "stop:WHY"): waits
    // until every rank still there has too, at most timeout_s after the
    // round `began` (one that has not is gone: stuck), and tells them all
    // the same word.
    RoundWord end_round(size_t seq, const std::string &word,
                        std::chrono::steady_clock::time_point began, double timeout_s);
    // The job's exit status, to every rank still there; stops reading.
    void finish(int status);
    std::vector<GoneRank> gone() const;

  private:
    struct Peer {
        std::unique_ptr<control::Channel> ch;
        double last_heard = 0; // monotonic seconds
        size_t done_seq = 0;   // rounds it has ended: done_seq - 1 is the last
        std::string word;      // its word for that round
        bool gone = false;
    };

    void accept_all(double timeout_s);
    void read_loop();
    void read_one(int rank);
    void mark_gone(int rank, const std::string &why, bool silent = false); // under mu_
    bool round_done(size_t seq) const;                                     // under mu_
    void send_all(const control::Message &m);                              // under mu_

    control::Listener listener_;
    std::string token_;
    double dead_after_;
    ResultFn on_result_;
    GoneFn on_gone_;
    mutable std::mutex mu_;
    std::condition_variable cv_;
    std::vector<Peer> peers_; // by rank; peers_[0] is rank 0 itself, unused
    std::vector<GoneRank> gone_;
    std::vector<GoneRank> to_announce_; // found gone, on_gone not called yet
    size_t seq_ = 0;                    // the round under way
    bool stopping_ = false;
    std::thread reader_;
};

} // namespace cmdbench
