#include "cmdbench/host/cli/interrupt.hpp"

#include "cmdbench/host/plugins/wake_event.hpp"
#include "cmdbench/host/run/crash_report.hpp"

#include <csignal>
#include <cstring>
#include <sys/prctl.h>
#include <unistd.h>

namespace cmdbench {
namespace {

std::atomic<bool> g_interrupted{false};
// Set when the parent asked for a signal at its death (PR_SET_PDEATHSIG, the
// local server): a SIGTERM after getppid() changed means the client is gone,
// not that someone asked us to stop.
pid_t g_watched_parent = 0;

void say(const char *a, const char *b) {
    char line[256];
    size_t n = 0;
    for (const char *s : {"\n", crash_report::prefix(), a, b, "\n"})
        for (; *s && n < sizeof line; ++s)
            line[n++] = *s;
    ssize_t ignored = write(STDERR_FILENO, line, n);
    (void)ignored;
}

void on_signal(int sig) {
    // A hang-up can come twice (the terminal, then the shell passing it on to
    // its jobs): only a second Ctrl-C or SIGTERM means "quit now".
    if (g_interrupted.exchange(true)) {
        if (sig != SIGHUP) _exit(128 + sig);
        return;
    }
    set_interrupt_event(); // the waits of every run wake now
    if (sig == SIGTERM && g_watched_parent && getppid() != g_watched_parent)
        say("the client process went away", ", stopping");
    else if (sig == SIGTERM)
        say("terminated (SIGTERM)", ", stopping");
    else if (sig == SIGHUP)
        say("hung up (SIGHUP: the terminal or session closed)", ", stopping");
    else
        say("interrupted", ", stopping (Ctrl-C again to quit now)");
}

// A process started with the signal ignored (the local server, a background
// job, nohup) keeps ignoring it, as Unix programs do: its parent decides.
void catch_unless_ignored(int sig, const struct sigaction &sa) {
    struct sigaction old {};
    sigaction(sig, nullptr, &old);
    if (old.sa_handler != SIG_IGN) sigaction(sig, &sa, nullptr);
}

} // namespace

const std::atomic<bool> &install_interrupt_handler() {
    int death_signal = 0;
    if (prctl(PR_GET_PDEATHSIG, &death_signal) == 0 && death_signal == SIGTERM)
        g_watched_parent = getppid();
    interrupt_event_fd(); // made here: the handler only writes to it
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    catch_unless_ignored(SIGINT, sa);
    // A closed terminal or ssh session stops a run as Ctrl-C does, so the
    // results so far are kept rather than lost with the process.
    catch_unless_ignored(SIGHUP, sa);
    sigaction(SIGTERM, &sa, nullptr);
    // A peer vanishing must be an error on a socket, not a dead process.
    signal(SIGPIPE, SIG_IGN);
    return g_interrupted;
}

} // namespace cmdbench
