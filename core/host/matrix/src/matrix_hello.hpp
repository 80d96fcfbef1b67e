// What each rank of a matrix job tells the others through the launcher at
// the start (the one collective of the job), and what in those hellos
// keeps the job from running.
#pragma once
#include "cmdbench/host/matrix/matrix_rails.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cmdbench {

// What each rank tells the others at the start.
struct Hello {
    std::string digest;     // of the effective scenario text
    std::string node;       // Job::node()
    std::string address;    // "host:port" of its server; empty when it could not start one
    std::string token;      // that server's token (the job is private to its launcher)
    std::string error;      // why it has no server
    bool bad_input = false; // the error is the scenario's ([matrix] interface/device): exit 2
    std::vector<RailAddress> rails; // rails = "all": its RDMA devices, where its server listens
    // Rank 0's alone: where its coordinator listens (on its server's host)
    // and the token the other ranks join it with (round_link.hpp).
    uint16_t coordinator_port = 0;
    std::string coordinator_token;
};

std::string hello_text(const Hello &h);
// Never throws: an unreadable hello comes back with `error` saying so.
Hello parse_hello(const std::string &text);

// What keeps the job from running, in the hellos of every rank (each sees
// the same, so each reaches the same verdict); `usage`: the scenario's or
// the command's fault (exit 2).
std::vector<std::string> hello_problems(const std::vector<Hello> &peers, bool &usage);

} // namespace cmdbench
