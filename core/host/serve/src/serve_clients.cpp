#include "serve_clients.hpp"

#include "busy_refusals.hpp"
#include "cmdbench/host/run/exit_status.hpp"
#include "cmdbench/host/run/test_executor.hpp"
#include "cmdbench/host/serve/serve_label.hpp"
#include "session_children.hpp"
#include "session_table.hpp"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
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
// How long an authenticated client waits for a session to end before it
// is told "busy": one right after another's Bye is served, not refused.
constexpr auto kSessionWait = std::chrono::milliseconds(300);
// Handshakes at once, besides the sessions: enough for a cluster's clients
// arriving together, few enough to be cheap.
constexpr size_t kMinHandshakes = 32;
// A child still in its handshake this long after its handshake deadline is
// stuck (in a send, say): ended.
constexpr auto kHandshakeBackstop = std::chrono::milliseconds(control::kServerHandshakeMs + 2000);

// Silent connections (nothing sent yet) may hold half the handshake pool.
// One replaces a silent connection only when that one is at least this old:
// a burst of them then costs an accept each, not a fork each, while a client
// that reconnects every 100 ms still gets through.
constexpr auto kSilentDropAge = std::chrono::milliseconds(250);
// A client that talks (its Hello has come) takes the place of the oldest
// silent connection at once, or of a talking one at least this old (far
// longer than a real client's handshake takes).
constexpr auto kHeardDropAge = std::chrono::milliseconds(500);
// How long a new connection may take to send its Hello when only that
// decides whether it gets a place.
constexpr int kFirstWordsMs = 50;

size_t handshake_pool(int max_clients) {
    return std::max(kMinHandshakes, size_t(max_clients));
}

// Whether the peer sends anything within wait_ms; peeks, so nothing is read.
bool talks_within(const Channel &ch, int wait_ms) {
    pollfd p{ch.fd(), POLLIN, 0};
    char byte;
    return (wait_ms == 0 || poll(&p, 1, wait_ms) == 1) &&
           ::recv(ch.fd(), &byte, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
}

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

// The parent's state: the children (one per connection), the table they
// share, the connections refused outright.
class Dispatcher {
  public:
    Dispatcher(control::Listener &listener, const ClientLimits &limits, const SessionBody &session)
        : listener_(listener), limits_(limits), session_(session),
          pool_(handshake_pool(limits.max_clients)), silent_pool_(pool_ / 2),
          table_(limits.max_clients, size_t(limits.max_clients) + 2 * pool_), children_(table_),
          parent_(getpid()) {}

    void step() {
        children_.reap();
        refusals_.service();
        for (pid_t stuck : children_.handshakes_older_than(kHandshakeBackstop))
            drop(stuck, "its handshake took too long");
        std::optional<Channel> ch = next_client(listener_, kAcceptPollMs);
        if (!ch) return;
        children_.reap();
        bool talked = talks_within(*ch, 0);
        // A real client accepted the moment it connected has not sent its
        // Hello yet; when only talking connections could make room, it gets
        // a moment to. A silent flood fills the silent places and is refused
        // without this wait.
        if (!talked && !has_room(false) && table_.silent_handshakes() < silent_pool_)
            talked = talks_within(*ch, kFirstWordsMs);
        make_room(talked);
        std::optional<size_t> entry;
        if (has_room(talked)) entry = table_.add(ch->peer_name(), talked);
        if (!entry)
            refuse(std::move(*ch));
        else
            start_session(*ch, *entry);
    }

    void stop() { children_.stop_all(kStopGraceMs); }

  private:
    bool has_room(bool talked) const {
        return table_.handshakes() < pool_ && (talked || table_.silent_handshakes() < silent_pool_);
    }

    // Ends a handshake, if one may go, so that a new connection fits: a
    // silent connection never takes the place of one that talks.
    void make_room(bool talked) {
        if (has_room(talked)) return;
        // Even a talking newcomer leaves a just-started child the moment it
        // takes to read the Hello its client may have sent.
        std::optional<pid_t> victim = children_.oldest_handshake(
            true, talked ? std::chrono::milliseconds(kFirstWordsMs) : kSilentDropAge);
        if (victim) {
            drop(*victim, "it had sent nothing, and a newer connection needed its place (" +
                              std::to_string(silent_pool_) + " silent connections at most)");
            return;
        }
        if (talked && (victim = children_.oldest_handshake(false, kHeardDropAge)))
            drop(*victim, "its handshake was the oldest unfinished one of " +
                              std::to_string(pool_) + " at once");
    }

    void log_refusal(const std::string &line) {
        size_t suppressed = 0;
        if (limits_.quiet || !table_.refusal_log_due(suppressed)) return;
        serve_log(suppressed ? line + " (and " + std::to_string(suppressed) +
                                   " more refused since the last such line)"
                             : line);
    }

    void drop(pid_t pid, const std::string &why) {
        const std::string peer = children_.peer(pid);
        if (children_.drop_handshake(pid))
            log_refusal("dropped the handshake of " + peer + ": " + why);
    }

    // No room for even a handshake. Nothing here has proved it holds the
    // token, so the answer names no one.
    void refuse(Channel &&ch) {
        const std::string why =
            "server busy (" + std::to_string(table_.sessions()) + " of " +
            std::to_string(limits_.max_clients) + " clients, " +
            std::to_string(table_.handshakes()) + " connections in their handshake, " +
            std::to_string(table_.silent_handshakes()) + " of them silent); try again later";
        log_refusal("turned away " + ch.peer_name() + ": " + why);
        refusals_.refuse(std::move(ch), why);
    }

    void start_session(Channel &ch, size_t entry) {
        std::cout.flush();
        std::fflush(nullptr); // nothing buffered is written twice
        const pid_t pid = fork();
        if (pid == 0) run_child(ch, entry);
        if (pid < 0) {
            const std::string why = std::strerror(errno);
            table_.remove(entry);
            serve_log("cannot start a session for " + ch.peer_name() + ": fork: " + why);
            refusals_.refuse(std::move(ch), "the server cannot start a session: fork: " + why);
            return;
        }
        children_.add(pid, ch.peer_name(), entry);
    }

    // In the child: the session runs with none of the parent's listening
    // state or other connections, and ends with the parent.
    [[noreturn]] void run_child(Channel &ch, size_t entry) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent_) _exit(1);
        // Ctrl-C and a hang-up reach the whole process group: the parent
        // decides, and stops its sessions with SIGTERM.
        signal(SIGINT, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        listener_.close();
        refusals_.close_all();
        SessionGate gate;
        gate.admit = [this, entry] { return table_.claim(entry, kSessionWait); };
        gate.log_refusal = [this](const std::string &line) { log_refusal(line); };
        gate.heard = [this, entry] { table_.heard(entry); };
        const int code = session_(ch, gate);
        table_.leave(entry);
        std::cout.flush();
        std::fflush(nullptr);
        _exit(code);
    }

    control::Listener &listener_;
    const ClientLimits &limits_;
    const SessionBody &session_;
    const size_t pool_;
    const size_t silent_pool_;
    SessionTable table_;
    SessionChildren children_;
    BusyRefusals refusals_;
    const pid_t parent_;
};

} // namespace

void serve_log(const std::string &line) {
    static const std::string prefix = serve_log_prefix();
    std::fprintf(stderr, "%s%s\n", prefix.c_str(), line.c_str());
}

int serve_clients(control::Listener &listener, const ClientLimits &limits,
                  const SessionBody &session, const std::atomic<bool> &interrupted,
                  const std::function<bool()> &ready) {
    std::optional<Dispatcher> dispatcher;
    try {
        dispatcher.emplace(listener, limits, session);
    } catch (const std::exception &e) { // the session table, out of memory
        serve_log(std::string("cannot start serving: ") + e.what());
        return kExitUsage;
    }
    if (!ready()) return 1;
    while (!interrupted)
        dispatcher->step();
    dispatcher->stop();
    return kExitInterrupted;
}

} // namespace cmdbench
