// End to end: percentiles of fewer samples than they need are absent, not
// figures (docs/results.md, "Percentiles of few samples"). Real pingpong runs
// over loopback TCP: one of 100 round trips (p99 given, p99.9 not), one of a
// single round trip (a median only), one of a single burst (as
// configs/tcp-loopback.toml's bandwidth rows). Checked in the table, JSON,
// CSV and HTML report, in `cmdbench compare` of the results file, and in an
// expectation on the missing p99, which is unknown, not a pass.
#include "process.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using nlohmann::json;

namespace {

const char *kScenario = R"(baseline = "tcp"

[[run]]
name = "hundred"
group = "lat"
variant = "tcp"
test = "pingpong"
transport = "tcp"
sizes = [4096]
iterations = 100
transfer_count = 1

[[run]]
name = "one"
group = "lat"
variant = "tcp-one"
test = "pingpong"
transport = "tcp"
sizes = [4096]
iterations = 1
transfer_count = 1
expect = { latency_p99 = { max = 1000000 }, latency_p50 = { max = 1000000 } }

[[run]]
name = "burst"
test = "pingpong"
transport = "tcp"
sizes = [4096]
iterations = 1
transfer_count = 10
)";

std::vector<std::string> words(const std::string &line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

// The histogram columns (min p50 p90 p99 p99.9 max) of the row under the
// heading "== NAME:" in a run table.
std::vector<std::string> hist_cells(const std::string &table, const std::string &run,
                                    const std::string &row) {
    const size_t at = table.find("== " + run + ":");
    if (at == std::string::npos) return {};
    const size_t line = table.find("\n" + row + " ", at);
    if (line == std::string::npos) return {};
    const auto w = words(table.substr(line + 1, table.find('\n', line + 1) - line - 1));
    if (w.size() < 6) return {};
    return {w.end() - 6, w.end()};
}

size_t count(const std::string &s, const std::string &what) {
    size_t n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1))
        ++n;
    return n;
}

// The CSV records (no field of these runs is quoted).
std::vector<std::vector<std::string>> csv_records(const std::string &text) {
    std::vector<std::vector<std::string>> records;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find(',') == std::string::npos) break; // the comparison follows
        std::vector<std::string> fields(1);
        for (char c : line) {
            if (c == ',')
                fields.emplace_back();
            else
                fields.back().push_back(c);
        }
        records.push_back(fields);
    }
    return records;
}

} // namespace

TEST_CASE("percentiles of too few samples: absent in table, JSON, CSV, HTML and compare") {
    const std::string dir = temp_dir();
    const std::string toml = dir + "/few.toml";
    std::ofstream(toml) << kScenario;
    const std::string out = dir + "/few.json", html = dir + "/few.html";

    // The expectation on the one-sample p99 cannot be judged: exit 3.
    const auto r =
        run_process({cmdbench_exe(), "run", toml, "--quiet", "-o", out, "--report", html});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 3);

    // Table: a median of one sample, "-" for p90, p99, p99.9.
    const auto one = hist_cells(r.out, "one", "4k_lat");
    REQUIRE(one.size() == 6);
    CHECK(one[1] == one[0]); // p50 = min = max: the one sample
    CHECK(one[5] == one[0]);
    CHECK(one[2] == "-");
    CHECK(one[3] == "-");
    CHECK(one[4] == "-");
    const auto burst = hist_cells(r.out, "burst", "4k_bw");
    REQUIRE(burst.size() == 6);
    CHECK(burst[3] == "-");
    const auto hundred = hist_cells(r.out, "hundred", "4k_lat");
    REQUIRE(hundred.size() == 6);
    CHECK(hundred[3] != "-"); // 100 samples: p99 is a figure
    CHECK(hundred[4] == "-"); // p99.9 needs 1000
    CHECK_THAT(r.out, Catch::Contains("UNKNOWN one 4k_lat: latency_p99, expected <= 1000000: 1 "
                                      "sample, too few for a p99 (it needs 100)"));
    CHECK_THAT(r.out, Catch::Contains("PASS    one 4k_lat: latency_p50 "));
    CHECK_THAT(r.err, Catch::Contains("1 of 2 expectations could not be judged: one 4k_lat: "
                                      "latency_p99"));

    // JSON: every key there, null where the count is too small.
    const json doc = json::parse(read_file(out));
    CHECK(doc["schema_version"] == 4);
    const json &h1 = doc["runs"][1]["rows"][0]["histograms"]["rtt"];
    CHECK(h1["count"] == 1);
    CHECK(h1["p50"] == h1["max"]);
    for (const char *key : {"p90", "p99", "p99_9", "p99_99"}) {
        INFO(key);
        REQUIRE(h1.contains(key));
        CHECK(h1[key].is_null());
    }
    const json &h100 = doc["runs"][0]["rows"][0]["histograms"]["rtt"];
    CHECK(h100["count"] == 100);
    CHECK(h100["p99"].is_number_unsigned());
    CHECK(h100["p99_9"].is_null());
    const json &v = doc["expectations"]["verdicts"][0];
    CHECK(v["verdict"] == "unknown");
    CHECK(v["value"].is_null());
    CHECK(v["reason"] == "1 sample, too few for a p99 (it needs 100)");

    // HTML: the p99 cell of the one-sample variant is missing, and its point
    // in the latency chart has no p99 whisker (the baseline's has one).
    const std::string page = read_file(html);
    const size_t p99 = page.find("<caption>one-way latency p99 (µs)</caption>");
    REQUIRE(p99 != std::string::npos);
    const std::string table = page.substr(p99, page.find("</table>", p99) - p99);
    CHECK(count(table, "<tr><td>4k_lat</td>") == 1);
    CHECK(count(table, "<span class=\"missing\" title=\"no value\">—</span>") == 1);
    const size_t chart = page.find("one-way latency against message size");
    REQUIRE(chart != std::string::npos);
    const std::string svg = page.substr(chart, page.find("</svg>", chart) - chart);
    CHECK(count(svg, "stroke-width=\"1.5\" fill=\"none\"") == 1); // one whisker

    // compare: the p99 row has the baseline's value and no cell for tcp-one.
    const auto c = run_process({cmdbench_exe(), "compare", out});
    INFO(c.out << c.err);
    CHECK(c.exit_code == 3); // the saved expectation, judged again
    size_t row = c.out.find("4k_lat  ");
    while (row != std::string::npos &&
           c.out.substr(row, c.out.find('\n', row) - row).find(" 1-way p99 ") == std::string::npos)
        row = c.out.find("4k_lat  ", row + 1);
    REQUIRE(row != std::string::npos);
    const auto cells = words(c.out.substr(row, c.out.find('\n', row) - row));
    REQUIRE(cells.size() == 7); // item, metric (2 words), unit, tcp, tcp-one, ratio
    CHECK(cells[5] == "-");
    CHECK(cells[6] == "-");
    const auto cj = run_process({cmdbench_exe(), "compare", out, "--format", "json"});
    const json cmp = json::parse(cj.out);
    bool seen = false;
    for (const json &row_json : cmp["rows"])
        if (row_json["item"] == "4k_lat" && row_json["metric"] == "latency_p99") {
            seen = true;
            CHECK(row_json["cells"][0]["median"].is_number());
            CHECK(row_json["cells"][1]["median"].is_null());
            CHECK(row_json["cells"][1]["verdict"] == "missing");
        }
    CHECK(seen);

    // CSV: empty fields where JSON has null.
    const auto csv = run_process({cmdbench_exe(), "run", toml, "--quiet", "--format", "csv"});
    const auto records = csv_records(csv.out);
    REQUIRE(records.size() == 4); // header and three rows
    const auto &head = records[0];
    auto col = [&](const char *name) {
        const auto it = std::find(head.begin(), head.end(), name);
        REQUIRE(it != head.end());
        return size_t(it - head.begin());
    };
    CHECK(records[2][col("run")] == "one");
    CHECK(records[2][col("rtt_count")] == "1");
    CHECK(records[2][col("rtt_p50_ns")] == records[2][col("rtt_max_ns")]);
    for (const char *name : {"rtt_p90_ns", "rtt_p99_ns", "rtt_p99_9_ns", "rtt_p99_99_ns"})
        CHECK(records[2][col(name)].empty());
    CHECK_FALSE(records[1][col("rtt_p99_ns")].empty());
    CHECK(records[1][col("rtt_p99_9_ns")].empty());
}
