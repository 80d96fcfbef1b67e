// A rank's side of the matrix link (round_link.hpp), for every rank but 0:
// its results to rank 0 as each pair ends, a word every kBeatSeconds so
// rank 0 can tell it from a stopped one, and rank 0's word at each round's
// end.
#pragma once
#include "cmdbench/control/control.hpp"
#include "cmdbench/host/matrix/round_link.hpp"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace cmdbench {

class RankLink {
  public:
    // Joins rank 0's coordinator at host:port with the job's token and waits
    // (at most start_timeout_s) for its start; throws JobError naming rank 0
    // (`rank0`, "rank 0 (node1)") when it cannot.
    RankLink(const std::string &host, uint16_t port, const std::string &token, int rank,
             std::string rank0, double start_timeout_s = 90);
    ~RankLink();
    RankLink(const RankLink &) = delete;
    RankLink &operator=(const RankLink &) = delete;

    // What rank 0 said at the start (Coordinator::StartFn).
    const nlohmann::json &start() const { return start_; }
    // A results document of one pair; throws JobError when rank 0 is gone.
    void send_result(const std::string &doc);
    // This rank's end of round `seq` ("go" or "stop:WHY"), then rank 0's word
    // for it, waiting at most timeout_s; throws JobError when rank 0 is gone
    // or has given up on this rank.
    RoundWord end_round(size_t seq, const std::string &word, double timeout_s);
    // The job's exit status from rank 0, at most timeout_s.
    int wait_end(double timeout_s);

  private:
    void send(const nlohmann::json &j);
    nlohmann::json receive(double timeout_s);
    [[noreturn]] void lost(const std::string &what) const;
    void beat_loop();

    control::Channel ch_;
    std::string rank0_;
    nlohmann::json start_;
    std::mutex send_mu_;
    std::mutex beat_mu_;
    std::condition_variable beat_cv_;
    bool stop_beating_ = false;
    std::thread beater_;
};

} // namespace cmdbench
