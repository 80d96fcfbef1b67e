// A third party's test whose metric names cmdbench does not know (plugin
// `burst`, tests/sdk/burst) declares what they mean (ABI 1.2): its rows must
// be compared with the right better/worse direction in the run's table, the
// JSON comparison and the HTML report, and its MOVED bytes must give CPU per
// GB. Two variants of one group: "quick" copies once per burst, "slow" 50
// times, so "slow" is worse on the rate and latency. Each run lasts some
// milliseconds, not microseconds: one lost time slice on a loaded machine
// must not make the repeats of "quick" overlap those of "slow".
#include "process.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

using json = nlohmann::json;

namespace {

const std::string kPlugin = std::string(CMDBENCH_BINARY_DIR) + "/tests/sdk/burst/cmdbench-burst.so";

std::string dir() {
    static const std::string d = temp_dir();
    return d;
}

const std::string kScenario = R"(baseline = "quick"

[[run]]
test = "burst"
group = "burst"
variant = "quick"
spin = 1
bursts = 300000
repeat = 2

[[run]]
test = "burst"
group = "burst"
variant = "slow"
spin = 50
bursts = 2000
repeat = 2
)";

struct Outputs {
    ProcessResult run;
    std::string results, html;
};

// One run of the scenario, shared by the cases: table on stdout, results
// file and HTML report.
const Outputs &outputs() {
    static const Outputs o = [] {
        Outputs x;
        const std::string toml = dir() + "/burst.toml";
        std::ofstream(toml) << kScenario;
        x.results = dir() + "/burst.json";
        x.html = dir() + "/burst.html";
        x.run = run_process({cmdbench_exe(), "run", toml, "--plugin-dir", kPlugin, "-o", x.results,
                             "--report", x.html},
                            240);
        return x;
    }();
    return o;
}

// The comparison table's line for (item, label), split on spaces.
std::vector<std::string> table_line(const std::string &out, const std::string &item,
                                    const std::string &label) {
    const size_t at = out.find("== comparison");
    REQUIRE(at != std::string::npos);
    std::istringstream lines(out.substr(at));
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::vector<std::string> w;
        for (std::string s; words >> s;)
            w.push_back(s);
        if (w.size() > 2 && w[0] == item && line.find("  " + label + "  ") != std::string::npos)
            return w;
    }
    FAIL("no comparison line for " << item << " " << label << " in:\n" << out.substr(at));
    return {};
}

const json *find_row(const json &rows, const std::string &item, const std::string &metric) {
    for (const auto &r : rows)
        if (r["item"] == item && r["metric"] == metric) return &r;
    return nullptr;
}

} // namespace

TEST_CASE("declared metrics: a third-party test's rows in the run's comparison table") {
    const Outputs &o = outputs();
    INFO("stdout:\n" << o.run.out << "\nstderr:\n" << o.run.err);
    REQUIRE(o.run.exit_code == 0);
    for (const std::string item : {"small", "large"}) {
        // Higher is better: slow has fewer bursts per second, "worse".
        auto rate = table_line(o.run.out, item, "bursts/s");
        CHECK(rate.back() == "worse");
        CHECK(std::find(rate.begin(), rate.end(), "1/s") != rate.end());
        // Lower is better: slow's bursts take longer, also "worse". The
        // histogram keeps its own name: it is no round trip made one-way.
        CHECK(table_line(o.run.out, item, "burst p50").back() == "worse");
        CHECK(table_line(o.run.out, item, "burst p99").size() > 4);
        // stall (the slowest burst) is declared lower-is-better too; it is
        // a maximum, too noisy on a busy machine for a verdict here.
        CHECK(table_line(o.run.out, item, "stall").size() > 4);
    }
    // Not declared, so not compared; context metrics are not compared either.
    const std::string cmp = o.run.out.substr(o.run.out.find("== comparison"));
    CHECK(cmp.find(" spin ") == std::string::npos);
    CHECK(cmp.find("payload") == std::string::npos);
    CHECK(cmp.find("copied") == std::string::npos);
    CHECK(cmp.find("1-way p50") == std::string::npos);
    CHECK(cmp.find("1-way p99") == std::string::npos);
}

TEST_CASE("declared metrics: the JSON comparison carries kind and direction") {
    const Outputs &o = outputs();
    REQUIRE(o.run.exit_code == 0);
    ProcessResult r = run_process({cmdbench_exe(), "compare", o.results, "--format", "json"}, 60);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE(r.exit_code == 0);
    const json doc = json::parse(r.out);
    CHECK(doc["baseline"] == "quick");
    REQUIRE(doc["columns"] == json({"quick", "slow"}));
    for (const std::string item : {"small", "large"}) {
        const json *rate = find_row(doc["rows"], item, "bursts/s");
        REQUIRE(rate);
        CHECK((*rate)["kind"] == "rate");
        CHECK((*rate)["unit"] == "1/s");
        CHECK((*rate)["higher_is_better"] == true);
        CHECK((*rate)["cells"][1]["verdict"] == "ratio");
        CHECK((*rate)["cells"][1]["ratio"].get<double>() < 0.5);
        // The row's message size comes from the metric declared MESSAGE_SIZE.
        CHECK((*rate)["size"].get<double>() == (item == "small" ? 256 : 16384));

        const json *p50 = find_row(doc["rows"], item, "burst p50");
        REQUIRE(p50);
        CHECK((*p50)["kind"] == "latency");
        CHECK((*p50)["unit"] == "us");
        CHECK((*p50)["higher_is_better"] == false);
        CHECK(find_row(doc["rows"], item, "burst p99"));
        CHECK_FALSE(find_row(doc["rows"], item, "latency_p50"));
        CHECK((*p50)["cells"][1]["ratio"].get<double>() > 2);
        const json *stall = find_row(doc["rows"], item, "stall");
        REQUIRE(stall);
        CHECK((*stall)["kind"] == "duration");
        CHECK((*stall)["unit"] == "us");
        CHECK((*stall)["higher_is_better"] == false);
        CHECK_FALSE(find_row(doc["rows"], item, "spin"));
        CHECK_FALSE(find_row(doc["rows"], item, "payload"));
    }
    // The MOVED bytes give the run's CPU per GB.
    CHECK(find_row(doc["rows"], "whole run", "cpu_per_gb"));

    // The results file keeps what each metric means, so compare can read it.
    const json res = json::parse(read_file(o.results));
    const json &m = res["runs"][0]["rows"][0]["metrics"];
    CHECK(m["bursts/s"]["kind"] == "rate");
    CHECK(m["bursts/s"]["better"] == "higher");
    CHECK(m["payload"]["flags"] == json({"message_size"}));
    CHECK_FALSE(m["spin"].contains("kind"));
    CHECK(res["runs"][0]["rows"][0]["histograms"]["burst"]["kind"] == "latency");
}

TEST_CASE("declared metrics: the HTML report charts and tabulates them") {
    const Outputs &o = outputs();
    REQUIRE(o.run.exit_code == 0);
    const std::string html = read_file(o.html);
    // A chart against message size and a table for the rate, with slow worse.
    CHECK_THAT(html, Catch::Contains("burst: bursts/s against message size"));
    CHECK_THAT(html, Catch::Contains("<caption>bursts/s (1/s)</caption>"));
    CHECK_THAT(html, Catch::Contains("<caption>stall (us)</caption>"));
    // The histogram under its own name; "one-way" only for a declared
    // round trip, which this is not.
    CHECK_THAT(html, Catch::Contains("burst: burst p50 against message size"));
    CHECK_THAT(html, Catch::Contains("burst p50 (µs)"));
    CHECK_THAT(html, !Catch::Contains("one-way latency"));
    const size_t table = html.find("<caption>bursts/s (1/s)</caption>");
    const std::string rate_table = html.substr(table, html.find("</table>", table) - table);
    CHECK_THAT(rate_table, Catch::Contains("worse"));
    CHECK_THAT(rate_table, !Catch::Contains("better"));
}
