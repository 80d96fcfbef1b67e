#include "background_flows.hpp"

#include <chrono>

namespace cmdbench {

struct BackgroundFlows::Signal {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<bool> started; // reported data, or ended
    std::vector<size_t> rows;  // reported so far
};

namespace {

// A flow's progress display: its first row or progress report is the event
// that it moves data.
class FlowWatch final : public ProgressDisplay {
  public:
    FlowWatch(std::mutex &mu, std::condition_variable &cv, std::vector<bool> &started,
              std::vector<size_t> &rows, size_t k)
        : mu_(mu), cv_(cv), started_(started), rows_(rows), k_(k) {}
    void start(size_t, size_t, const std::string &, unsigned, unsigned) override {}
    void update(uint64_t done, uint64_t) override {
        if (done > 0) mark();
    }
    void row_done(const std::string &) override {
        {
            std::lock_guard<std::mutex> lock(mu_);
            ++rows_[k_];
        }
        mark();
    }
    void clear() override {}
    void mark() {
        std::lock_guard<std::mutex> lock(mu_);
        started_[k_] = true;
        cv_.notify_all();
    }

  private:
    std::mutex &mu_;
    std::condition_variable &cv_;
    std::vector<bool> &started_;
    std::vector<size_t> &rows_;
    size_t k_;
};

} // namespace

BackgroundFlows::BackgroundFlows(const ClientState &shared, const RunSpec &spec, unsigned count,
                                 unsigned repeat, const std::string &server,
                                 const std::string &token)
    : shared_(shared), spec_(spec), repeat_(repeat), signal_(std::make_shared<Signal>()),
      sessions_(count), outcomes_(count) {
    signal_->started.assign(count, false);
    signal_->rows.assign(count, 0);
    for (ClientSession &s : sessions_) {
        s.server = server;
        s.token = token;
    }
    for (size_t k = 0; k < count; ++k)
        threads_.emplace_back(&BackgroundFlows::run_flow, this, k);
}

BackgroundFlows::~BackgroundFlows() {
    stop();
}

// One flow's client, on its own thread. Its session is closed on this
// thread: a local server it started gets SIGTERM when the thread that forked
// it ends (its parent-death signal follows the thread).
void BackgroundFlows::run_flow(size_t k) {
    FlowWatch watch(signal_->mu, signal_->cv, signal_->started, signal_->rows, k);
    ClientState st{shared_.registry, stop_, watch};
    st.local_node = shared_.local_node;
    FlowOutcome &out = outcomes_[k];
    out.result = run_client(st, sessions_[k], spec_, repeat_);
    out.ended_early = !stop_.load();
    out.abandoned = st.abandoned;
    if (!st.abandoned) close_session(sessions_[k]);
    watch.mark();
}

size_t BackgroundFlows::wait_started(double seconds, const std::atomic<bool> &interrupted) {
    using clock = std::chrono::steady_clock;
    const auto give_up = clock::now() + std::chrono::milliseconds(int64_t(seconds * 1000));
    std::unique_lock<std::mutex> lock(signal_->mu);
    for (;;) {
        size_t waiting = 0;
        for (bool s : signal_->started)
            waiting += s ? 0 : 1;
        if (waiting == 0 || interrupted || clock::now() >= give_up) return waiting;
        // Wakes up now and then to notice an interrupt.
        signal_->cv.wait_for(lock, std::chrono::milliseconds(100));
    }
}

std::vector<bool> BackgroundFlows::started() const {
    std::lock_guard<std::mutex> lock(signal_->mu);
    return signal_->started;
}

std::vector<size_t> BackgroundFlows::rows_so_far() const {
    std::lock_guard<std::mutex> lock(signal_->mu);
    return signal_->rows;
}

const std::vector<FlowOutcome> &BackgroundFlows::stop() {
    stop_ = true;
    for (std::thread &t : threads_)
        if (t.joinable()) t.join();
    return outcomes_;
}

} // namespace cmdbench
