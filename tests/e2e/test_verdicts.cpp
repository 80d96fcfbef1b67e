// End to end: expectations (`expect`, docs/scenarios.md) judged on real runs
// over loopback TCP: absolute bounds that hold (exit 0) and that fail (exit 3,
// the failing row named on stderr, in the table, the JSON and the HTML),
// ratios to the baseline, a link rate loopback does not have (unknown, not a
// pass), `cmdbench compare` judging a saved file again, and a bad `expect`
// refused with file:line:column before anything runs.
#include "process.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

std::string scenario(const std::string &name, const std::string &text) {
    static const std::string dir = temp_dir();
    const std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
}

std::string dir_of(const std::string &path) {
    return path.substr(0, path.rfind('/'));
}

// One quick pingpong per variant: its row has a latency and a Gb/sec figure.
std::string run_table(const std::string &name, const std::string &variant,
                      const std::string &expect) {
    return "[[run]]\nname = \"" + name +
           "\"\ntest = \"pingpong\"\ntransport = \"tcp\"\n"
           "variant = \"" +
           variant + "\"\nsizes = [4096]\niterations = 200\ntransfer_count = 1\n" + expect + "\n";
}

} // namespace

TEST_CASE("bounds that hold exit 0, with a PASS per row in table and JSON") {
    const std::string toml =
        scenario("pass.toml", run_table("lat", "tcp",
                                        "expect = { latency_p99 = { max = 1000000 }, "
                                        "bandwidth = { min = 0.000001 } }"));
    const std::string out = dir_of(toml) + "/pass.json";
    const auto r = run_process({cmdbench_exe(), "run", toml, "--quiet", "-o", out});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("expectations:\n  PASS    lat 4k_lat: latency_p99 ") != std::string::npos);
    CHECK(r.out.find("all 2 expectations held") != std::string::npos);
    const json doc = json::parse(read_file(out));
    CHECK(doc["expectations"]["all_held"] == true);
    CHECK(doc["expectations"]["passed"] == 2);
    CHECK(doc["runs"][0]["expect"]["latency_p99"]["max"] == 1000000);
    CHECK(doc["expectations"]["verdicts"][0]["row"] == "4k_lat");
}

TEST_CASE("a failed bound, a ratio and an unknown link rate exit 3 and name the rows") {
    // A ratio of 10^6 either way to the baseline holds however loaded the
    // machine is (a pingpong can stall on it for milliseconds); 1e6 Gb/s does not.
    const std::string toml = scenario(
        "fail.toml",
        "baseline = \"tcp\"\n" + run_table("base", "tcp", "") +
            run_table("other", "tcp-again",
                      "expect = { link_fraction = 0.5, latency_p50 = { max_ratio = 1000000 }, "
                      "bandwidth = { min = 1000000, min_ratio = 0.000001 } }"));
    const std::string dir = dir_of(toml);
    const auto r = run_process({cmdbench_exe(), "run", toml, "--quiet", "-o", dir + "/fail.json",
                                "--report", dir + "/fail.html"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 3);
    CHECK(r.err.find("cmdbench: 1 of 4 expectations failed, 1 could not be judged: other 4k_lat: "
                     "bandwidth ") != std::string::npos);
    CHECK(r.err.find("expected >= 1000000") != std::string::npos);
    CHECK(r.err.find("link rate unknown (lo speed unknown)") != std::string::npos);
    CHECK(r.out.find("  FAIL    other 4k_lat: bandwidth ") != std::string::npos);
    CHECK(r.out.find("  UNKNOWN other: bandwidth") != std::string::npos);

    const json doc = json::parse(read_file(dir + "/fail.json"));
    const json &e = doc["expectations"];
    CHECK(e["failed"] == 1);
    CHECK(e["unknown"] == 1);
    CHECK(e["passed"] == 2);
    bool ratio_checked = false;
    for (const auto &v : e["verdicts"])
        if (v["check"] == "max_ratio") {
            CHECK(v["verdict"] == "pass");
            CHECK(v["baseline"].is_number());
            CHECK(v["value"].get<double>() > 0);
            ratio_checked = true;
        }
    CHECK(ratio_checked);
    const std::string html = read_file(dir + "/fail.html");
    CHECK(html.find("<h2>Expectations</h2>") != std::string::npos);
    CHECK(html.find("class=\"verdict-fail\"") != std::string::npos);

    // The saved expectations are judged again, with the same outcome.
    const auto c = run_process({cmdbench_exe(), "compare", dir + "/fail.json"});
    CHECK(c.exit_code == 3);
    CHECK(c.out.find("1 of 4 expectations failed, 1 could not be judged") != std::string::npos);
}

TEST_CASE("a bad expectation is refused with file:line:column before anything runs") {
    const std::string toml =
        scenario("bad.toml", run_table("lat", "tcp", "expect = { latency_p99 = { mx = 20 } }"));
    const auto r = run_process({cmdbench_exe(), "run", toml, "--quiet"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == toml + ":9:28: unknown bound 'mx' in 'expect.latency_p99' (keys: min, max, "
                          "min_ratio, max_ratio) (did you mean 'max'?)\n");
    CHECK(r.out.empty());
}
