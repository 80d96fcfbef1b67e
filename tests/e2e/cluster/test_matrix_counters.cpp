// End to end: a matrix job's pairs carry their counters (runs[].counters,
// docs/counters.md) and, under load, their background's Gb/s, in every
// format. Two ranks under mpirun in a network namespace of the test's own,
// so that the TCP counters count the job alone: with an nftables rule
// dropping a few TCP packets, each pair's retransmits are in its JSON, on a
// line of its own in the table and the HTML page, and `retransmits = { max
// = 0 }` fails per link; without it, under background traffic, the CSV has
// each pair's counter sums and background Gb/s as the JSON has them.
#include "launchers.hpp"
#include "net_namespace.hpp"
#include "process.hpp"
#include "results_doc.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

using nlohmann::json;

namespace {

// 100 round trips of 64 KiB a pair: a few hundred packets, some lost.
const char *kLossy = R"([matrix]
pattern = "all-pairs"
address = "127.0.0.1"

[[run]]
name = "tcp"
test = "pingpong"
transport = "tcp"
sizes = [65536]
iterations = 100
expect = { retransmits = { max = 0 } }
)";

// Small round trips beside two bulk flows: each pair alone and under load.
const char *kLoaded = R"([matrix]
pattern = "all-pairs"
address = "127.0.0.1"

[[run]]
name = "lat"
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 200
background = { test = "throughput", transport = "tcp", flows = 2, params = { sizes = [65536], duration = 0.2, run_infinitely = true } }
)";

std::string pair_text(const json &run, const char *arrow) {
    return std::to_string(run.at("pair").at("client").get<int>()) + " " + arrow + " " +
           std::to_string(run.at("pair").at("server").get<int>()) + ": ";
}

// The CSV's lines as fields (no field here holds a comma or a quote).
std::vector<std::vector<std::string>> csv_lines(const std::string &text) {
    std::vector<std::vector<std::string>> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        std::vector<std::string> fields;
        std::istringstream f(line);
        for (std::string field; std::getline(f, field, ',');)
            fields.push_back(field);
        if (line.back() == ',') fields.emplace_back();
        out.push_back(fields);
    }
    return out;
}

} // namespace

TEST_CASE("mpirun, packets lost: each pair's retransmits in JSON, table and HTML, FAIL per link") {
    if (!namespaces_work() || program("nft").empty()) {
        FAIL("no network namespace or no nft here: the lossy matrix is not exercised");
    }
    const std::string dir = temp_dir();
    const std::string out = dir + "/lossy.json", html = dir + "/lossy.html";
    const ProcessResult r =
        run_process(in_namespace(kDropRule, mpirun_np(2, {cmdbench_exe(), "run",
                                                          write_scenario(dir, "l.toml", kLossy),
                                                          "-o", out, "--report", html, "-q"})),
                    180, kRootOk);
    INFO("exit " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    if (r.exit_code == 99) {
        FAIL("nftables cannot drop packets in a namespace here: the lossy matrix is not exercised");
    }
    REQUIRE(r.exit_code == 3);
    const json doc = json::parse(read_file(out));
    REQUIRE(doc.at("runs").size() == 2);
    const std::string page = read_file(html);
    int lossy_pairs = 0;
    for (const json &run : doc.at("runs")) {
        const json &c = run.at("counters");
        INFO(c.dump(2));
        CHECK(c.at("same_machine") == true);
        for (const char *side : {"client", "server"}) {
            CHECK(c.at(side).at("net lo").at("rx_bytes").get<int64_t>() > 100 * 65536);
            CHECK(c.at(side).at("tcp").contains("RetransSegs"));
        }
        const int64_t sum = client_tcp_retransmits(run);
        const std::string line = "counters: retransmits +" + std::to_string(sum) + ": ";
        if (sum == 0) {
            CHECK(r.out.find("  " + pair_text(run, "->") + "counters:") == std::string::npos);
            continue;
        }
        ++lossy_pairs;
        CHECK(r.out.find("  " + pair_text(run, "->") + line + "tcp RetransSegs +") !=
              std::string::npos);
        CHECK(page.find("<li>" + pair_text(run, "→") + line) != std::string::npos);
    }
    CHECK(lossy_pairs > 0);
    // One verdict per link, its value the pair's own sum.
    const json &verdicts = doc.at("expectations").at("verdicts");
    REQUIRE(verdicts.size() == 2);
    for (const json &v : verdicts) {
        CHECK(v.at("metric") == "retransmits");
        for (const json &run : doc.at("runs"))
            if (run.at("pair").at("client") == v.at("pair").at("client"))
                CHECK(v.at("value").get<double>() == double(client_tcp_retransmits(run)));
        CHECK(v.at("verdict") == (v.at("value").get<double>() > 0 ? "fail" : "pass"));
    }
    CHECK(r.out.find("links FAIL") != std::string::npos);
}

TEST_CASE("mpirun under load: CSV has each pair's counter sums and background Gb/s, as the JSON") {
    if (!namespaces_work()) {
        FAIL("unshare -rnm fails here: no network namespace to count the job's TCP alone");
    }
    const std::string dir = temp_dir();
    const std::string out = dir + "/load.json", html = dir + "/load.html";
    const ProcessResult r = run_process(
        in_namespace("",
                     mpirun_np(2, {cmdbench_exe(), "run", write_scenario(dir, "b.toml", kLoaded),
                                   "--format", "csv", "-o", out, "--report", html, "-q"})),
        180, kRootOk);
    INFO("exit " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    const json doc = json::parse(read_file(out));
    const auto lines = csv_lines(r.out);
    // A row a run, in the JSON's order.
    REQUIRE(lines.size() == doc.at("runs").size() + 1);
    std::map<std::string, size_t> col;
    for (size_t i = 0; i < lines[0].size(); ++i)
        col[lines[0][i]] = i;
    const std::string page = read_file(html);
    bool quiet = true; // no counter of a class shown was non-zero
    for (size_t k = 0; k < doc.at("runs").size(); ++k) {
        const json &run = doc.at("runs").at(k);
        const std::vector<std::string> &line = lines[k + 1];
        INFO(run.dump());
        REQUIRE(line.size() == lines[0].size());
        CHECK(line[col.at("counters_retransmits")] == std::to_string(client_tcp_retransmits(run)));
        // Who measured: the pair's ranks and nodes, as the JSON's pair.
        const json &pair = run.at("pair");
        CHECK(line[col.at("client_rank")] == std::to_string(pair.at("client").get<int>()));
        CHECK(line[col.at("server_rank")] == std::to_string(pair.at("server").get<int>()));
        CHECK(line[col.at("client_node")] == pair.at("client_node").get<std::string>());
        CHECK(line[col.at("server_node")] == pair.at("server_node").get<std::string>());
        CHECK(line[col.at("client_rank")] != line[col.at("server_rank")]);
        for (const char *c : {"counters_retransmits", "counters_errors", "counters_congestion"})
            quiet = quiet && line[col.at(c)] == "0";
        const std::string gbps = line[col.at("background_gbps")];
        if (!run.contains("background")) {
            CHECK(gbps.empty());
            continue;
        }
        const double moved = run.at("background").at("Gb/sec").get<double>();
        CHECK(std::stod(gbps) == moved);
        char text[64];
        std::snprintf(text, sizeof text, "%.3f", moved);
        CHECK(page.find("<li>" + pair_text(run, "→") +
                        "under load: 2 flows of throughput over tcp moved " + text + " Gb/s") !=
              std::string::npos);
    }
    // Nothing lost, sent again or held back: no counters line.
    if (quiet)
        CHECK(page.find("counters:") == std::string::npos);
    else
        WARN("TCP counted retransmits or errors in a clean namespace (a loaded host)");
}
