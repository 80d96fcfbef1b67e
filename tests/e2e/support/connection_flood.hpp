// A flood of silent TCP connections to one port, kept up from a thread of
// its own: each connection the server closes (or answers) is replaced at
// once, so the server sees a steady stream of new, silent connections
// from this host -- what any local user can send to a server on loopback.
#pragma once
#include "raw_control.hpp"

#include <atomic>
#include <poll.h>
#include <thread>
#include <unistd.h>
#include <vector>

class ConnectionFlood {
  public:
    ConnectionFlood(int port, size_t connections) : port_(port), fds_(connections, -1) {
        thread_ = std::thread([this] { keep_up(); });
    }
    ~ConnectionFlood() {
        done_ = true;
        thread_.join();
        for (int fd : fds_)
            if (fd >= 0) close(fd);
    }
    ConnectionFlood(const ConnectionFlood &) = delete;
    ConnectionFlood &operator=(const ConnectionFlood &) = delete;

    // Connections made so far, replacements included.
    size_t made() const { return made_; }

  private:
    void keep_up() {
        while (!done_) {
            for (int &fd : fds_)
                if (fd < 0 && (fd = raw::connect_to("127.0.0.1", port_, 200)) >= 0) ++made_;
            std::vector<pollfd> ready;
            for (int fd : fds_)
                ready.push_back({fd, POLLIN, 0});
            if (poll(ready.data(), ready.size(), 50) <= 0) continue;
            for (size_t i = 0; i < ready.size(); ++i)
                if (ready[i].revents && fds_[i] >= 0) {
                    close(fds_[i]); // answered or closed: replaced on the next turn
                    fds_[i] = -1;
                }
        }
    }

    const int port_;
    std::vector<int> fds_;
    std::atomic<bool> done_{false};
    std::atomic<size_t> made_{0};
    std::thread thread_;
};
