// A `cmdbench serve` process for end-to-end tests: on a free port, waited
// for (bounded) until it listens, stopped by the destructor.
#pragma once
#include "process.hpp"

#include <chrono>
#include <csignal>
#include <fstream>
#include <netinet/in.h>
#include <stdexcept>
#include <string>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

// A TCP port nothing listens on right now (the kernel's pick for port 0).
inline int free_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) != 0)
        throw std::runtime_error("cannot find a free port");
    close(fd);
    return ntohs(a.sin_port);
}

inline std::string write_text(const std::string &path, const std::string &text, int mode = 0600) {
    std::ofstream(path) << text;
    chmod(path.c_str(), mode_t(mode));
    return path;
}

class ServeProcess {
  public:
    // `prefix` goes before the binary (e.g. {"/usr/bin/env", "CMDBENCH_TOKEN=..."}).
    explicit ServeProcess(const std::vector<std::string> &options,
                          const std::vector<std::string> &prefix = {})
        : dir_(temp_dir()), port_(free_port()) {
        std::vector<std::string> argv = prefix;
        argv.insert(argv.end(), {cmdbench_exe(), "serve", "--port", std::to_string(port_)});
        argv.insert(argv.end(), options.begin(), options.end());
        pid_ = start_process(argv, dir_ + "/out", dir_ + "/err");
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (err().find("listening on") == std::string::npos) {
            if (std::chrono::steady_clock::now() > end)
                throw std::runtime_error("the server did not start: " + err());
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    ~ServeProcess() { stop(); }
    ServeProcess(const ServeProcess &) = delete;
    ServeProcess &operator=(const ServeProcess &) = delete;

    int port() const { return port_; }
    pid_t pid() const { return pid_; }
    std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
    std::string out() const { return read_file(dir_ + "/out"); }
    std::string err() const { return read_file(dir_ + "/err"); }
    // Its stderr once it holds `text` (a line the server writes after the
    // client is done), or as it is after `timeout_s`.
    std::string err_with(const std::string &text, int timeout_s = 10) const {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
        std::string e = err();
        while (e.find(text) == std::string::npos && std::chrono::steady_clock::now() < end) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            e = err();
        }
        return e;
    }
    // Waits for it to exit by itself: the exit code (-1 when it had to be killed).
    int wait_exit(int timeout_s) {
        if (pid_ <= 0) return code_;
        code_ = wait_process(pid_, timeout_s);
        pid_ = -1;
        return code_;
    }
    // SIGTERM, then the exit code (-1 when it had to be killed).
    int stop() {
        if (pid_ <= 0) return code_;
        kill(pid_, SIGTERM);
        code_ = wait_process(pid_, 10);
        pid_ = -1;
        return code_;
    }

  private:
    std::string dir_;
    int port_;
    pid_t pid_ = -1;
    int code_ = -1;
};
