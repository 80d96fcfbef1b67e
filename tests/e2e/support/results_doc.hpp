// For end-to-end tests that write a scenario, run it and read the results
// document back (docs/results.md): the file, a run's rows, a row's metrics.
#pragma once
#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

// Writes `text` to DIR/NAME; returns the path.
inline std::string write_scenario(const std::string &dir, const std::string &name,
                                  const std::string &text) {
    const std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
}

// A row's metric value; a missing one fails the test naming the row and key.
inline double metric(const nlohmann::json &row, const std::string &key) {
    INFO("row " << row["name"] << " metric " << key);
    return row.at("metrics").at(key).at("value").get<double>();
}

// The row of `run` named `name`, or null.
inline const nlohmann::json *row_named(const nlohmann::json &run, const std::string &name) {
    for (const nlohmann::json &row : run["rows"])
        if (row["name"] == name) return &row;
    return nullptr;
}

// The rows' names, in order.
inline std::vector<std::string> row_names(const nlohmann::json &rows) {
    std::vector<std::string> out;
    for (const nlohmann::json &row : rows)
        out.push_back(row["name"]);
    return out;
}

// A run's TCP retransmits as its verdict counts them with both sides on one
// machine: the client side's counters of the retransmit class
// (docs/counters.md), each of which must be recorded.
inline int64_t client_tcp_retransmits(const nlohmann::json &run) {
    int64_t sum = 0;
    const nlohmann::json &tcp = run.at("counters").at("client").at("tcp");
    for (const char *name : {"RetransSegs", "TCPTimeouts", "TCPLostRetransmit", "TCPFastRetrans",
                             "TCPSlowStartRetrans", "TCPSynRetrans"})
        sum += tcp.at(name).get<int64_t>();
    return sum;
}
