// One figure, one convention: the one-way latency of a run (half the round
// trip of a ping-pong, of a verbs SEND or WRITE; a READ whole) must read the
// same in the run's table, `cmdbench compare`, the HTML report and a
// verdict. A real TCP pingpong through the binary; then verbs-shaped results
// (made from it, as this machine has no RDMA device) through compare.
#include "process.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

using json = nlohmann::json;

namespace {

const std::string &dir() {
    static const std::string d = temp_dir();
    return d;
}

std::vector<std::string> words(const std::string &line) {
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string s; in >> s;)
        w.push_back(s);
    return w;
}

// The figure in column `header` of the table row `row` (columns are single
// words: rstream's, then the generic ones).
double table_cell(const std::string &out, const std::string &header, const std::string &row) {
    std::istringstream lines(out);
    std::vector<std::string> head;
    for (std::string line; std::getline(lines, line);) {
        const auto w = words(line);
        if (!w.empty() && w[0] == "name") head = w;
        if (!w.empty() && w[0] == row && w.size() == head.size())
            for (size_t i = 0; i < head.size(); ++i)
                if (head[i] == header) return std::stod(w[i]);
    }
    FAIL("no column " << header << " for row " << row << " in:\n" << out);
    return 0;
}

// The comparison table's value of (item, metric label) in the column of
// `variant` (counted after item, the label's words and the unit).
double compare_cell(const std::string &out, const std::string &item, const std::string &label,
                    size_t column = 0) {
    std::istringstream lines(out.substr(out.find("== comparison")));
    for (std::string line; std::getline(lines, line);) {
        const auto w = words(line);
        if (w.size() > 3 && w[0] == item && line.find("  " + label + "  ") != std::string::npos) {
            const size_t first = 1 + words(label).size() + 1;
            REQUIRE(w.size() > first + column);
            if (w[first + column] == "-") return NAN;
            return std::stod(w[first + column]);
        }
    }
    FAIL("no comparison line " << item << " " << label << " in:\n" << out);
    return 0;
}

// The first cell of the HTML table captioned `caption`.
double html_cell(const std::string &html, const std::string &caption) {
    const size_t at = html.find("<caption>" + caption + "</caption>");
    REQUIRE(at != std::string::npos);
    static const std::regex cell(R"(<td>[^<]*</td><td>[^<]*</td><td>([0-9.]+)</td>)");
    std::smatch m;
    const std::string table = html.substr(at, html.find("</table>", at) - at);
    REQUIRE(std::regex_search(table, m, cell));
    return std::stod(m[1]);
}

// The figure a verdict line gives: "latency_p50 3.3 us one-way (round trip ...".
double verdict_value(const std::string &out) {
    static const std::regex one_way(R"(latency_p50 ([0-9.]+) us one-way \(round trip)");
    std::smatch m;
    REQUIRE(std::regex_search(out, m, one_way));
    return std::stod(m[1]);
}

// Equal as printed: within the rounding of the coarsest output (the
// verdict's 3 significant digits, the table's 2 decimals).
void same_figure(double shown, double want, const char *where) {
    INFO(where << ": shown " << shown << ", one-way p50 " << want);
    CHECK(std::fabs(shown - want) <= std::max(0.006, want * 0.006));
}

struct PingpongRun {
    ProcessResult run;
    json results;
    std::string results_path, html;
};

const PingpongRun &pingpong() {
    static const PingpongRun r = [] {
        PingpongRun x;
        const std::string toml = dir() + "/lat.toml";
        std::ofstream(toml) << "[[run]]\nname = \"lat\"\ntest = \"pingpong\"\ntransport = \"tcp\"\n"
                               "sizes = [64]\niterations = 2000\n"
                               "expect = { latency_p50 = { max = 1000000 } }\n";
        x.results_path = dir() + "/lat.json";
        x.html = dir() + "/lat.html";
        x.run = run_process(
            {cmdbench_exe(), "run", toml, "--quiet", "-o", x.results_path, "--report", x.html});
        x.results = json::parse(read_file(x.results_path));
        return x;
    }();
    return r;
}

double one_way_p50_us(const json &run) {
    return run["rows"][0]["histograms"]["rtt"]["p50"].get<double>() / 2 / 1000;
}

} // namespace

TEST_CASE(
    "honest tables: a pingpong's one-way p50 reads the same in table, compare, HTML, verdict") {
    const PingpongRun &r = pingpong();
    INFO(r.run.out << r.run.err);
    REQUIRE(r.run.exit_code == 0);
    const double want = one_way_p50_us(r.results["runs"][0]);
    // The table says which latency each column is.
    CHECK(r.run.out.find("p50(us,1-way)") != std::string::npos);
    CHECK(r.run.out.find(" p50(us) ") == std::string::npos);
    same_figure(table_cell(r.run.out, "p50(us,1-way)", "64_lat"), want, "table");
    same_figure(verdict_value(r.run.out), want, "verdict of the run");

    const std::string html = dir() + "/again.html";
    const auto cmp = run_process({cmdbench_exe(), "compare", r.results_path, "--report", html});
    INFO(cmp.out << cmp.err);
    REQUIRE(cmp.exit_code == 0);
    same_figure(compare_cell(cmp.out, "64_lat", "1-way p50"), want, "compare");
    same_figure(verdict_value(cmp.out), want, "verdict of compare");
    same_figure(html_cell(read_file(r.html), "one-way latency p50 (µs)"), want, "HTML of the run");
    same_figure(html_cell(read_file(html), "one-way latency p50 (µs)"), want, "HTML of compare");
    // A latency run has no CPU per GB, in the table or the results.
    CHECK(r.run.out.find("CPU-s/GB") == std::string::npos);
    CHECK(r.results["runs"][0]["cpu_per_gb_s"].is_null());
    CHECK(cmp.out.find("cpu/GB") == std::string::npos);
}

TEST_CASE("honest tables: verbs-shaped WRITE and READ results: one-way and whole, side by side") {
    const PingpongRun &r = pingpong();
    REQUIRE(r.run.exit_code == 0);
    // Two verbs-lat runs as the verbs plugin reports them (its rows' keys and
    // meanings), their histogram the pingpong's: WRITE's a round trip,
    // compared one way; READ's one operation, compared whole.
    json doc = r.results;
    json write = doc["runs"][0];
    write["name"] = "lat-write";
    write["test"] = "verbs-lat";
    write["transport"] = "";
    write["group"] = "verbs-lat";
    write["variant"] = "verbs-lat:write";
    write["params"] = {{"op", "write"}};
    write["settings"] = {{"inline_size", "236"}, {"tx_depth", "128"}};
    json &metrics = write["rows"][0]["metrics"];
    const double rtt_us = metrics["usec/xfer"]["value"].get<double>() * 2;
    metrics.erase("Gb/sec");
    metrics.erase("msgs/sec");
    metrics["usec/xfer"]["flags"] = {"detail", "one_way"};
    metrics["usec/rtt"] = {{"value", rtt_us},
                           {"unit", "us"},
                           {"kind", "latency"},
                           {"better", "lower"},
                           {"flags", {"detail", "round_trip"}}};
    json read = write;
    read["name"] = "lat-read";
    read["variant"] = "verbs-lat:read";
    read["params"] = {{"op", "read"}};
    read.erase("expect");
    read["rows"][0]["metrics"]["usec/xfer"]["value"] = rtt_us;
    read["rows"][0]["metrics"]["usec/xfer"]["flags"] = {"detail", "round_trip"};
    read["rows"][0]["histograms"]["rtt"]["flags"] = json::array();
    doc["runs"] = {write, read};
    doc["baseline"] = "verbs-lat:write";
    doc.erase("comparison");
    doc.erase("expectations");
    const std::string file = dir() + "/verbs.json", html = dir() + "/verbs.html";
    std::ofstream(file) << doc.dump(2);

    const auto cmp = run_process({cmdbench_exe(), "compare", file, "--report", html});
    INFO(cmp.out << cmp.err);
    REQUIRE(cmp.exit_code == 0);
    // One column per op, not two numbered copies of one variant.
    CHECK(cmp.out.find("verbs-lat:write") != std::string::npos);
    CHECK(cmp.out.find("verbs-lat:read/verbs-lat:write") != std::string::npos);
    CHECK(cmp.out.find("verbs-lat#") == std::string::npos);
    const double p50_ns = write["rows"][0]["histograms"]["rtt"]["p50"].get<double>();
    same_figure(compare_cell(cmp.out, "64_lat", "1-way p50"), p50_ns / 2000, "compare, write");
    same_figure(compare_cell(cmp.out, "64_lat", "rtt p50", 1), p50_ns / 1000, "compare, read");
    same_figure(verdict_value(cmp.out), p50_ns / 2000, "verdict, write");
    same_figure(html_cell(read_file(html), "one-way latency p50 (µs)"), p50_ns / 2000,
                "HTML, write");
}
