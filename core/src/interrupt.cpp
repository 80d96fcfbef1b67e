#include "interrupt.hpp"

#include <csignal>
#include <unistd.h>

namespace cmdbench {
namespace {

std::atomic<bool> g_interrupted{false};

void on_signal(int sig) {
    if (g_interrupted.exchange(true)) _exit(128 + sig);
    static const char msg[] = "\ncmdbench: interrupted, stopping (Ctrl-C again to quit now)\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
}

} // namespace

const std::atomic<bool> &install_interrupt_handler() {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    // A process started with SIGINT ignored (the local server, a background
    // job) keeps ignoring it, as Unix programs do: its parent decides.
    struct sigaction old {};
    sigaction(SIGINT, nullptr, &old);
    if (old.sa_handler != SIG_IGN) sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    // A peer vanishing must be an error on a socket, not a dead process.
    signal(SIGPIPE, SIG_IGN);
    return g_interrupted;
}

} // namespace cmdbench
