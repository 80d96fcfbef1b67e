// The flows of a run's background traffic (under_load.hpp): started on
// threads of their own, watched for their first data, stopped on request.
#pragma once
#include "cmdbench/host/run/run_client.hpp"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace cmdbench {

struct FlowOutcome {
    RunResult result;
    bool abandoned = false;
    bool ended_early = false; // ended before it was asked to stop
};

class BackgroundFlows {
  public:
    // Starts `count` flows of `spec`, each with its own session to `server`.
    BackgroundFlows(const ClientState &shared, const RunSpec &spec, unsigned count, unsigned repeat,
                    const std::string &server, const std::string &token);
    ~BackgroundFlows(); // stops and joins them

    // Waits until every flow has reported data or ended, at most `seconds`
    // and not past an interrupt: how many have not.
    size_t wait_started(double seconds, const std::atomic<bool> &interrupted);
    // Which flows had reported data (or ended) when asked.
    std::vector<bool> started() const;
    // How many rows each flow has reported so far.
    std::vector<size_t> rows_so_far() const;
    // Asks every flow to stop and waits for them (each ends within its
    // run's bounds): what each did.
    const std::vector<FlowOutcome> &stop();

  private:
    struct Signal;
    void run_flow(size_t k);

    const ClientState &shared_;
    RunSpec spec_;
    unsigned repeat_;
    std::atomic<bool> stop_{false};
    std::shared_ptr<Signal> signal_;
    std::vector<ClientSession> sessions_;
    std::vector<FlowOutcome> outcomes_;
    std::vector<std::thread> threads_;
};

} // namespace cmdbench
