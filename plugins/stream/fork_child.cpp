// rstream's fork mode: one child process per accepted connection (see
// fork_child.hpp). The child reports its outcome to the parent through a pipe:
// its cmdbench_status, then its one-line reason.
#include "fork_child.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <new>
#include <poll.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace cmdbench::stream {
namespace {

// How long the parent waits past the deadline (or a cancel) for the child to
// report its own timeout before killing it; below the host's 5 s grace.
constexpr uint64_t kChildGraceNs = 2000000000;

void write_all(int fd, const std::string &data) {
    size_t done = 0;
    while (done < data.size()) {
        ssize_t n = write(fd, data.data() + done, data.size() - done);
        if (n > 0)
            done += static_cast<size_t>(n);
        else if (n < 0 && errno != EINTR)
            return; // the parent is gone: nobody to tell
    }
}

// The child: run the body, tell the parent how it went, and leave without
// unwinding the parent's frames (their destructors belong to the parent).
[[noreturn]] void child_main(int report_fd, const std::function<void()> &body) {
    int status = CMDBENCH_OK;
    std::string message;
    try {
        body();
    } catch (const cmdbench::support::RunError &e) {
        status = e.status;
        // Empty: the transport gave its reason to this process's host only;
        // in the child that can only be the accepted socket's configuration.
        message = *e.what() ? e.what() : "fork child: configuring the accepted connection failed";
    } catch (const std::bad_alloc &) {
        status = CMDBENCH_ERR;
        message = "malloc: out of memory";
    } catch (const std::exception &e) {
        status = CMDBENCH_ERR;
        message = e.what();
    } catch (...) {
        status = CMDBENCH_ERR;
        message = "fork child: internal error";
    }
    // Rows printed by the child reach stdout before the parent goes on.
    std::fflush(nullptr);
    std::string report(reinterpret_cast<const char *>(&status), sizeof status);
    write_all(report_fd, report + message);
    _exit(status == CMDBENCH_OK ? 0 : 1);
}

std::string describe_exit(int wstatus) {
    if (WIFSIGNALED(wstatus))
        return "fork child: killed by signal " + std::to_string(WTERMSIG(wstatus)) + " (" +
               strsignal(WTERMSIG(wstatus)) + ")";
    return "fork child: exited with status " + std::to_string(WEXITSTATUS(wstatus)) +
           " without a report";
}

class ChildWait {
  public:
    ChildWait(const Run &s, pid_t pid, int fd) : s_(s), pid_(pid), fd_(fd) {}
    ~ChildWait() {
        if (fd_ >= 0) close(fd_);
        if (pid_ > 0) { // not reaped: the run is being abandoned
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }
    ChildWait(const ChildWait &) = delete;
    ChildWait &operator=(const ChildWait &) = delete;

    // Reads the report until the child closes the pipe (by exiting), then
    // reaps it; throws what the child reported, or how it died.
    void finish() {
        std::string report = read_report();
        int wstatus = 0;
        while (waitpid(pid_, &wstatus, 0) < 0 && errno == EINTR) {
        }
        pid_ = -1;
        if (report.size() < sizeof(int)) {
            if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0 && report.empty())
                fail("fork child: exited without a report");
            fail(describe_exit(wstatus));
        }
        int status = CMDBENCH_ERR;
        std::memcpy(&status, report.data(), sizeof status);
        if (status != CMDBENCH_OK)
            throw cmdbench::support::RunError(status, report.substr(sizeof status));
    }

  private:
    std::string read_report() {
        const cmdbench_host &h = s_.host();
        std::string report;
        uint64_t give_up = 0;
        char buf[512];
        for (;;) {
            if (h.cancelled(s_.ctx())) {
                const uint64_t now = h.now_ns();
                if (give_up == 0) give_up = now + kChildGraceNs;
                if (now >= give_up) {
                    const bool late = h.remaining_ms(s_.ctx()) <= 0;
                    throw cmdbench::support::RunError(
                        late ? CMDBENCH_ERR_TIMEOUT : CMDBENCH_ERR_CANCELLED,
                        std::string("fork child: ") + (late ? "timed out" : "cancelled"));
                }
            }
            pollfd p{fd_, POLLIN, 0};
            int n = poll(&p, 1, 100);
            if (n < 0 && errno != EINTR) fail_errno("poll", errno);
            if (n <= 0) continue;
            ssize_t got = read(fd_, buf, sizeof buf);
            if (got > 0)
                report.append(buf, static_cast<size_t>(got));
            else if (got == 0)
                return report;
            else if (errno != EINTR)
                fail_errno("read", errno);
        }
    }

    const Run &s_;
    pid_t pid_;
    int fd_;
};

} // namespace

void run_in_child(const Run &s, const std::function<void()> &body) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) fail_errno("pipe", errno);
    // DEVIATION from rstream: flush first, so that nothing buffered before the
    // fork (the table header) is printed twice.
    std::fflush(nullptr);
    pid_t pid = fork();
    if (pid < 0) {
        int err = errno;
        close(fds[0]);
        close(fds[1]);
        fail_errno("fork", err);
    }
    if (pid == 0) {
        close(fds[0]);
        child_main(fds[1], body);
    }
    close(fds[1]);
    ChildWait(s, pid, fds[0]).finish();
}

} // namespace cmdbench::stream
