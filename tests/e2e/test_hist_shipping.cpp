// A test plugin's server-side histogram reaches the client (ABI 1.2
// hist_send / hist_recv): test `burst-server` of the SDK plugin
// tests/sdk/burst times bursts on the server and ships the histogram, plus a
// ramp of known values, to the client, which reports them in row "server".
// Run with the local server child and with a `cmdbench serve` process, both
// over real TCP control channels.
#include "process.hpp"
#include "serve_fixture.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

using json = nlohmann::json;

namespace {

const std::string kPlugin = std::string(CMDBENCH_BINARY_DIR) + "/tests/sdk/burst/cmdbench-burst.so";
constexpr int64_t kBursts = 10000; // enough for every percentile up to p99.99

// The plugin's ramp_value(): each value the middle of its histogram bucket,
// so the host's percentiles of them are exact nearest-rank values.
uint64_t ramp_value(int64_t i) {
    const unsigned shift = 1u + unsigned((i * 7) % 40);
    const uint64_t sub = 128u + uint64_t((i * 13) % 128);
    return (sub << shift) + (uint64_t{1} << (shift - 1));
}

uint64_t nearest_rank(const std::vector<uint64_t> &sorted, double p) {
    const auto rank = uint64_t(std::ceil(p / 100.0 * double(sorted.size()) * (1 - 1e-12)));
    return sorted[std::clamp<uint64_t>(rank, 1, sorted.size()) - 1];
}

std::string scenario(const std::string &dir) {
    const std::string toml = dir + "/burst-server.toml";
    std::ofstream(toml) << "[[run]]\ntest = \"burst-server\"\nspin = 3\nbursts = " << kBursts
                        << "\n";
    return toml;
}

// The client's row "server" of the results file.
json server_row(const std::string &results) {
    const json doc = json::parse(read_file(results));
    REQUIRE(doc["runs"].size() == 1);
    const json &run = doc["runs"][0];
    INFO(run.dump(1));
    REQUIRE(run["status"] == "ok");
    REQUIRE(run["rows"].size() == 1);
    REQUIRE(run["rows"][0]["name"] == "server");
    return run["rows"][0];
}

void check_server_row(const json &row) {
    INFO(row.dump(1));
    CHECK(row["metrics"]["bursts"]["value"] == kBursts);
    // The server's timings: every burst, ordered statistics, latency meaning.
    const json &burst = row["histograms"]["burst"];
    CHECK(burst["count"] == kBursts);
    CHECK(burst["kind"] == "latency");
    CHECK(burst["min"].get<uint64_t>() > 0);
    CHECK(burst["min"] <= burst["p50"]);
    CHECK(burst["p50"] <= burst["p99"]);
    CHECK(burst["p99"] <= burst["max"]);
    // The ramp arrives exactly: count, extremes, mean and percentiles.
    std::vector<uint64_t> ramp;
    double sum = 0;
    for (int64_t i = 0; i < kBursts; ++i) {
        ramp.push_back(ramp_value(i));
        sum += double(ramp.back());
    }
    std::sort(ramp.begin(), ramp.end());
    const json &r = row["histograms"]["ramp"];
    CHECK(r["count"] == kBursts);
    CHECK(r["min"] == ramp.front());
    CHECK(r["max"] == ramp.back());
    CHECK(r["mean"].get<double>() == Approx(sum / double(kBursts)).epsilon(1e-12));
    CHECK(r["p50"] == nearest_rank(ramp, 50));
    CHECK(r["p90"] == nearest_rank(ramp, 90));
    CHECK(r["p99"] == nearest_rank(ramp, 99));
    CHECK(r["p99_9"] == nearest_rank(ramp, 99.9));
    CHECK(r["p99_99"] == nearest_rank(ramp, 99.99));
    CHECK_FALSE(r.contains("kind")); // reported without a meaning
}

} // namespace

TEST_CASE("hist shipping: the local server's histograms reach the client's row") {
    const std::string dir = temp_dir();
    const std::string results = dir + "/out.json";
    ProcessResult r = run_process(
        {cmdbench_exe(), "run", scenario(dir), "--plugin-dir", kPlugin, "-o", results}, 240);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE(r.exit_code == 0);
    check_server_row(server_row(results));
    CHECK_THAT(r.out, Catch::Contains("server"));
}

TEST_CASE("hist shipping: a remote cmdbench serve's histograms reach the client's row") {
    ServeProcess serve({"--plugin-dir", kPlugin});
    const std::string dir = temp_dir();
    const std::string results = dir + "/out.json";
    ProcessResult r = run_process({cmdbench_exe(), "run", scenario(dir), "--plugin-dir", kPlugin,
                                   "--server", serve.address(), "-o", results},
                                  240);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err << "\nserve:\n" << serve.err());
    REQUIRE(r.exit_code == 0);
    check_server_row(server_row(results));
}
