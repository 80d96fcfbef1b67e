// UniqueFd and ChildProcess: descriptors closed by their owner, children
// placed, waited for (bounded) and never left behind.
#include "cmdbench/control/unique_fd.hpp"
#include "cmdbench/host/run/child_process.hpp"

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace cmdbench;

namespace {

bool fd_open(int fd) {
    return fcntl(fd, F_GETFD) != -1;
}

ChildSpec shell(const std::string &script) {
    ChildSpec spec;
    spec.argv = {"/bin/sh", "-c", script};
    spec.env = {"PATH=/usr/bin:/bin"};
    return spec;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

TEST_CASE("UniqueFd closes on destruction and on reset, and moves ownership") {
    int raw = -1;
    {
        Pipe p = make_pipe(O_CLOEXEC);
        raw = p.read.get();
        REQUIRE(fd_open(raw));
        UniqueFd moved = std::move(p.read);
        CHECK_FALSE(p.read);
        CHECK(moved.get() == raw);
        const int w = p.write.get();
        p.write.reset();
        CHECK_FALSE(fd_open(w));
        CHECK(fd_open(raw));
    }
    CHECK_FALSE(fd_open(raw));
    Pipe p = make_pipe(O_CLOEXEC);
    const int kept = p.write.release();
    CHECK(fd_open(kept));
    CHECK(p.write.close() == 0);
    close(kept);
}

TEST_CASE("ChildProcess places descriptors and reports the exit status") {
    Pipe out = make_pipe(O_CLOEXEC);
    ChildSpec spec = shell("echo placed >&3; exit 3");
    spec.fds = {{3, out.write.get()}};
    ChildProcess child(spec);
    out.write.reset();
    const auto status = child.wait_for(10000);
    REQUIRE(status);
    CHECK(WIFEXITED(*status));
    CHECK(WEXITSTATUS(*status) == 3);
    CHECK_FALSE(child.running());
    char buf[16] = {};
    CHECK(read(out.read.get(), buf, sizeof buf) == 7);
    CHECK(std::string(buf) == "placed\n");
}

TEST_CASE("ChildProcess: a bounded wait returns while the child runs on") {
    ChildProcess child(shell("exec sleep 30"));
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_FALSE(child.wait_for(200));
    CHECK(seconds_since(t0) >= 0.19);
    CHECK(child.running());
}

TEST_CASE("ChildProcess: the owner going away kills and reaps the child") {
    pid_t pid = -1;
    const auto t0 = std::chrono::steady_clock::now();
    {
        ChildProcess child(shell("exec sleep 30"));
        pid = child.pid();
        REQUIRE(kill(pid, 0) == 0);
    }
    CHECK(seconds_since(t0) < 10);
    // Reaped, not a zombie: the pid is gone.
    CHECK(kill(pid, 0) == -1);
    CHECK(errno == ESRCH);
}

TEST_CASE("ChildProcess: an executable that cannot start ends with status 127") {
    ChildSpec spec;
    spec.argv = {"/nonexistent/cmdbench-no-such-program"};
    ChildProcess child(spec);
    const auto status = child.wait_for(10000);
    REQUIRE(status);
    CHECK(WIFEXITED(*status));
    CHECK(WEXITSTATUS(*status) == 127);
}
