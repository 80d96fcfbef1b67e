#include "serve_clients.hpp"

#include "busy_refusals.hpp"
#include "session_children.hpp"
#include "test_executor.hpp"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <iostream>
#include <sys/prctl.h>
#include <thread>
#include <unistd.h>

namespace cmdbench {
namespace {

using control::Channel;
using control::ControlError;

// Short accept waits, so Ctrl-C, ended sessions and refused clients are
// looked after promptly.
constexpr int kAcceptPollMs = 200;
// A session told to stop ends its run within the test's grace period.
constexpr int kStopGraceMs = int(kGraceSeconds * 1000) + 3000;

// One line per second at most about turned-away clients, so a flood of
// connections cannot flood the log too.
class RefusalLog {
  public:
    explicit RefusalLog(bool quiet) : quiet_(quiet) {}
    void note(const std::string &peer, size_t active, int max_clients) {
        if (quiet_) return;
        const auto now = std::chrono::steady_clock::now();
        if (now - last_ < std::chrono::seconds(1)) {
            ++suppressed_;
            return;
        }
        std::string line = "turned away " + peer + ": busy (" + std::to_string(active) + " of " +
                           std::to_string(max_clients) + " clients)";
        if (suppressed_)
            line += " (and " + std::to_string(suppressed_) + " more since the last such line)";
        serve_log(line);
        last_ = now;
        suppressed_ = 0;
    }

  private:
    bool quiet_;
    std::chrono::steady_clock::time_point last_{};
    size_t suppressed_ = 0;
};

// The next connection within wait_ms, if any.
std::optional<Channel> next_client(control::Listener &listener, int wait_ms) {
    try {
        return listener.accept_within(wait_ms);
    } catch (const ControlError &e) {
        // Out of file descriptors, say: tell, and give sessions time to end.
        serve_log(e.what());
        std::this_thread::sleep_for(std::chrono::milliseconds(kAcceptPollMs));
        return std::nullopt;
    }
}

// The parent's state: running sessions, connections waiting a moment for
// a session that is just ending (a client that connects right after the
// last one said Bye should be served, not turned away), refused ones.
class Dispatcher {
  public:
    Dispatcher(control::Listener &listener, const ClientLimits &limits, const SessionBody &session)
        : listener_(listener), limits_(limits), session_(session), refusal_log_(limits.quiet),
          parent_(getpid()) {}

    void step() {
        children_.reap();
        refusals_.service();
        const auto now = Clock::now();
        while (!waiting_.empty() && has_room()) {
            start_session(waiting_.front().channel);
            waiting_.pop_front();
        }
        while (!waiting_.empty() && now - waiting_.front().since >= kSlotWait) {
            refuse_busy(std::move(waiting_.front().channel));
            waiting_.pop_front();
        }
        std::optional<Channel> ch =
            next_client(listener_, waiting_.empty() ? kAcceptPollMs : kWaitingPollMs);
        if (!ch) return;
        children_.reap();
        if (waiting_.empty() && has_room())
            start_session(*ch);
        else if (waiting_.size() >= kMaxWaiting)
            refuse_busy(std::move(*ch));
        else
            waiting_.push_back({std::move(*ch), Clock::now()});
    }

    void stop() { children_.stop_all(kStopGraceMs); }

  private:
    using Clock = std::chrono::steady_clock;
    // How long a connection waits for a free session before "busy".
    static constexpr auto kSlotWait = std::chrono::milliseconds(300);
    static constexpr int kWaitingPollMs = 20;
    static constexpr size_t kMaxWaiting = 64;
    struct Waiting {
        Channel channel;
        Clock::time_point since;
    };

    bool has_room() const { return children_.size() < size_t(limits_.max_clients); }

    // The parent never reads from a connection: a session child does, or
    // the client is told that the server is busy.
    void refuse_busy(Channel &&ch) {
        refusal_log_.note(ch.peer_name(), children_.size(), limits_.max_clients);
        refusals_.refuse(std::move(ch), children_.busy_text(limits_.max_clients));
    }

    void start_session(Channel &ch) {
        std::cout.flush();
        std::fflush(nullptr); // nothing buffered is written twice
        const pid_t pid = fork();
        if (pid == 0) run_child(ch);
        if (pid < 0) {
            const std::string why = std::strerror(errno);
            serve_log("cannot start a session for " + ch.peer_name() + ": fork: " + why);
            refusals_.refuse(std::move(ch), "the server cannot start a session: fork: " + why);
            return;
        }
        children_.add(pid, ch.peer_name());
    }

    // In the child: the session runs with none of the parent's listening
    // state or other connections, and ends with the parent.
    [[noreturn]] void run_child(Channel &ch) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent_) _exit(1);
        // Ctrl-C reaches the whole process group: the parent decides, and
        // stops its sessions with SIGTERM.
        signal(SIGINT, SIG_IGN);
        listener_.close();
        refusals_.close_all();
        for (Waiting &w : waiting_) // the parent's to answer; ~Channel never runs here
            if (w.channel.fd() != ch.fd()) ::close(w.channel.fd());
        const int code = session_(ch);
        std::cout.flush();
        std::fflush(nullptr);
        _exit(code);
    }

    control::Listener &listener_;
    const ClientLimits &limits_;
    const SessionBody &session_;
    RefusalLog refusal_log_;
    const pid_t parent_;
    SessionChildren children_;
    BusyRefusals refusals_;
    std::deque<Waiting> waiting_;
};

} // namespace

void serve_log(const std::string &line) {
    std::fprintf(stderr, "cmdbench serve: %s\n", line.c_str());
}

int serve_clients(control::Listener &listener, const ClientLimits &limits,
                  const SessionBody &session, const std::atomic<bool> &interrupted) {
    Dispatcher dispatcher(listener, limits, session);
    while (!interrupted)
        dispatcher.step();
    dispatcher.stop();
    return 130;
}

} // namespace cmdbench
