// Expectations in matrix mode from a hand-made Report: a verdict names its
// link, NOT RUN apart from FAIL and UNKNOWN, ratios against the baseline's
// run of the same pair and rail, the per-link, per-node and per-rail
// summaries worst first, and where they appear (table, JSON, HTML).
#include "cmdbench/report/compare/comparison.hpp"
#include "cmdbench/report/matrix/matrix_verdicts.hpp"
#include "cmdbench/report/matrix/report_matrix.hpp"
#include "cmdbench/report/old_metric_names.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/verdict.hpp"

#include <catch2/catch.hpp>
#include <cmdbench/plugin.h>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace cmdbench;

namespace {

// A pingpong latency row: one-way p50 = p99 = rtt / 2.
Row latency_row(double one_way_us) {
    Row row;
    row.name = "64_lat";
    row.metrics.push_back({"bytes", 64, CMDBENCH_UNIT_BYTES});
    HistSummary s;
    s.count = 10000;
    s.min = s.max = uint64_t(one_way_us * 2000);
    s.p50 = s.p90 = s.p99 = s.p999 = s.p9999 = s.max;
    row.hists.push_back({"rtt", s});
    give_old_name_meanings(row);
    return row;
}

Row bandwidth_row(double gbps) {
    Row row;
    row.name = "64k_bw";
    row.metrics = {{"bytes", 65536, CMDBENCH_UNIT_BYTES},
                   {"xfers", 100, CMDBENCH_UNIT_COUNT},
                   {"Gb/sec", gbps, CMDBENCH_UNIT_GBPS}};
    give_old_name_meanings(row);
    return row;
}

Expectations latency_max(double us) {
    Expectations e;
    e.metrics.push_back(
        {"latency_p99", MetricBounds{std::nullopt, us, std::nullopt, std::nullopt}});
    return e;
}

RunResult pair_run(const std::string &name, const std::string &variant, int client, int server,
                   std::vector<Row> rows, Expectations e) {
    RunResult r;
    r.name = name;
    r.test = "pingpong";
    r.transport = "tcp";
    r.group = "pingpong";
    r.variant = variant;
    r.rows = std::move(rows);
    r.expect = std::move(e);
    r.pair = RunPair{client, server, "node" + std::to_string(client),
                     "node" + std::to_string(server), 1};
    return r;
}

Report matrix_of(int ranks) {
    Report rep;
    rep.baseline = "tcp";
    MatrixInfo m;
    m.pattern = "all-pairs";
    m.rounds = 6;
    for (int r = 0; r < ranks; ++r)
        m.ranks.push_back({r, "node" + std::to_string(r), "10.0.0." + std::to_string(r) + ":7000"});
    rep.matrix = m;
    return rep;
}

// 4 ranks, all pairs, on two rails as the planner names them ("lat @rxe0",
// variant "tcp@rxe0"): 10 us one-way everywhere but on rail rxe1 of node3,
// 500 us; bound 100 us. Pair 0 -> 2 on rxe0 was not run.
Report two_rails() {
    Report rep = matrix_of(4);
    for (const std::string rail : {"rxe0", "rxe1"})
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                if (i == j) continue;
                const bool slow = rail == "rxe1" && (i == 3 || j == 3);
                RunResult r = pair_run("lat @" + rail, "tcp@" + rail, i, j,
                                       {latency_row(slow ? 500 + i : 10)}, latency_max(100));
                if (rail == "rxe0" && i == 0 && j == 2) {
                    r.rows.clear();
                    r.status = RunStatus::Interrupted;
                    r.error = "not run: interrupted";
                }
                rep.runs.push_back(std::move(r));
            }
    return rep;
}

} // namespace

TEST_CASE("matrix verdicts: each names its link and rail, latency says one-way") {
    const Report rep = two_rails();
    const auto v = evaluate_expectations(rep);
    REQUIRE(v.size() == 24);
    const ExpectVerdict *slow = nullptr;
    for (const auto &x : v)
        if (x.pair->client == 3 && x.pair->server == 1 && x.rail == "rxe1") slow = &x;
    REQUIRE(slow);
    CHECK(slow->outcome == Outcome::Fail);
    CHECK(link_text(*slow) == "rank 3 (node3) -> rank 1 (node1) @rxe1");
    CHECK(verdict_text(*slow) == "lat rank 3 (node3) -> rank 1 (node1) @rxe1 64_lat: latency_p99 "
                                 "503 us one-way (round trip 1006 us), expected <= 100");
    const auto j = verdicts_json(v);
    CHECK(j["failed"] == 6);
    CHECK(j["not_run"] == 1);
    CHECK(j["passed"] == 17);
    CHECK(j["unknown"] == 0);
}

TEST_CASE("a pair not run is NOT RUN with its reason, neither FAIL nor UNKNOWN") {
    const auto v = evaluate_expectations(two_rails());
    const ExpectVerdict *nr = nullptr;
    for (const auto &x : v)
        if (x.outcome == Outcome::NotRun) nr = &x;
    REQUIRE(nr);
    CHECK(nr->pair->client == 0);
    CHECK(nr->pair->server == 2);
    CHECK(nr->rail == "rxe0");
    CHECK(nr->reason == "not run: interrupted");
    CHECK(std::string(outcome_label(nr->outcome)) == "NOT RUN");
    CHECK(std::string(to_string(nr->outcome)) == "not_run");
    CHECK(verdict_text(*nr) == "lat rank 0 (node0) -> rank 2 (node2) @rxe0: latency_p99, expected "
                               "<= 100: not run: interrupted");
    std::ostringstream out;
    write_verdicts_table(out, v);
    CHECK(out.str().find("  NOT RUN lat rank 0 (node0) -> rank 2 (node2) @rxe0") !=
          std::string::npos);
    CHECK(verdict_summary(v).find("6 of 24 expectations failed, 1 not run: ") == 0);

    // A single run interrupted: NOT RUN too, not "unknown".
    Report one;
    RunResult r = pair_run("lat", "tcp", 0, 1, {}, latency_max(100));
    r.pair.reset();
    r.status = RunStatus::Interrupted;
    r.error = "not run: interrupted";
    one.runs.push_back(r);
    const auto single = evaluate_expectations(one);
    REQUIRE(single.size() == 1);
    CHECK(single[0].outcome == Outcome::NotRun);
    CHECK_FALSE(all_held(single));
}

TEST_CASE("matrix summaries: the bad rail and node lead, the worst link first") {
    const Report rep = two_rails();
    const MatrixVerdicts m = matrix_verdicts(rep, evaluate_expectations(rep));
    REQUIRE(m.links.size() == 24);
    CHECK(m.count[int(Outcome::Fail)] == 6);
    CHECK(m.count[int(Outcome::NotRun)] == 1);
    CHECK(m.count[int(Outcome::Pass)] == 17);
    REQUIRE(m.rails.size() == 2);
    CHECK(m.rails[0].name == "rxe1");
    CHECK(tally_text(m, m.rails[0]) ==
          "rxe1: 6 of 12 links FAIL, median latency_p99 255 us one-way");
    CHECK(tally_text(m, m.rails[1]) ==
          "rxe0: 0 of 12 links FAIL, 1 NOT RUN, median latency_p99 10 us one-way");
    REQUIRE(m.nodes.size() == 4);
    CHECK(m.nodes[0].name == "node3");
    CHECK(tally_text(m, m.nodes[0]) ==
          "node3 (rank 3): 6 of 12 links FAIL, median latency_p99 255 us one-way");
    // The worst link is the furthest beyond its bound: 3 -> x at 503 us.
    CHECK(m.links[0].outcome == Outcome::Fail);
    CHECK(m.links[0].pair.client == 3);
    CHECK(m.links[0].rail == "rxe1");
    CHECK(m.links[6].outcome == Outcome::NotRun); // after the fails, before the passes
    const std::string line = matrix_verdict_line(m);
    CHECK(line.find("6 of 24 links FAIL, 1 NOT RUN (6 of 24 expectations failed); worst: lat rank "
                    "3 (node3) -> ") == 0);
    CHECK(line.find("; and 4 more") != std::string::npos);
}

TEST_CASE("matrix table opens with the verdicts, before the ranks and matrices") {
    const Report rep = two_rails();
    std::ostringstream out;
    write_matrix_table(out, rep);
    const std::string t = out.str();
    const size_t verdicts = t.find("\nverdicts: 6 of 24 links FAIL, 1 NOT RUN");
    const size_t rails = t.find("per rail, worst first:\n  rail rxe1: 6 of 12 links FAIL");
    const size_t nodes = t.find("per node, worst first:\n  node3 (rank 3): 6 of 12 links FAIL");
    const size_t links = t.find("links not passing, worst first:\n  FAIL    lat rank 3 (node3)");
    const size_t ranks = t.find("ranks:\n  rank 0: node0");
    REQUIRE(verdicts != std::string::npos);
    REQUIRE(rails != std::string::npos);
    REQUIRE(nodes != std::string::npos);
    REQUIRE(links != std::string::npos);
    REQUIRE(ranks != std::string::npos);
    CHECK(verdicts < rails);
    CHECK(rails < nodes);
    CHECK(nodes < links);
    CHECK(links < ranks);
    CHECK(t.find("  NOT RUN lat rank 0 (node0) -> rank 2 (node2) @rxe0") != std::string::npos);
    CHECK(t.find("latency one-way (half the round trip)") != std::string::npos);
}

TEST_CASE("matrix JSON and HTML carry the summaries, no verdicts, no section") {
    const Report rep = two_rails();
    std::ostringstream json;
    write_json(json, rep);
    const auto doc = nlohmann::json::parse(json.str());
    const auto &mv = doc["matrix_verdicts"];
    CHECK(mv["links"]["fail"] == 6);
    CHECK(mv["links"]["not_run"] == 1);
    CHECK(mv["links"]["total"] == 24);
    CHECK(mv["rails"][0]["rail"] == "rxe1");
    CHECK(mv["nodes"][0]["node"] == "node3");
    CHECK(mv["nodes"][0]["fail"] == 6);
    CHECK(mv["problem_links"].size() == 7);
    CHECK(mv["problem_links"][6]["verdict"] == "not_run");
    CHECK(doc["expectations"]["verdicts"][0]["pair"]["client"] == 0);
    CHECK(doc["expectations"]["verdicts"][0]["rail"] == "rxe0");

    std::ostringstream html;
    write_matrix_html(html, rep);
    const std::string h = html.str();
    CHECK(h.find("id=\"matrix-verdict-summary\">6 of 24 links FAIL, 1 NOT RUN") !=
          std::string::npos);
    CHECK(h.find("<td>rxe1</td><td>12</td><td>6</td><td>0</td><td>0</td><td>6</td>") !=
          std::string::npos);
    CHECK(h.find("<td>NOT RUN</td><td>rank 0 (node0) -&gt; rank 2 (node2) @rxe0</td>") !=
          std::string::npos);
    CHECK(h.find("<script") == std::string::npos);

    Report plain = matrix_of(2);
    plain.runs.push_back(pair_run("lat", "tcp", 0, 1, {latency_row(10)}, {}));
    std::ostringstream table, page;
    write_matrix_table(table, plain);
    write_matrix_html(page, plain);
    CHECK(table.str().find("verdicts:") == std::string::npos);
    CHECK(table.str().find("ranks:") == std::string::npos);
    CHECK(page.str().find("Verdicts") == std::string::npos);
}

TEST_CASE("matrix JSON: the verdicts are written one at a time, a line each") {
    const Report rep = two_rails();
    std::ostringstream json;
    write_json(json, rep);
    const std::string text = json.str();
    const auto doc = nlohmann::ordered_json::parse(text);
    const auto verdicts = evaluate_expectations(rep);
    const auto &list = doc["expectations"]["verdicts"];
    REQUIRE(list.size() == verdicts.size());
    for (size_t i = 0; i < verdicts.size(); ++i)
        CHECK(list[i] == verdict_json(verdicts[i]));
    // The counts are the whole list's.
    CHECK(doc["expectations"]["total"] == verdicts.size());
    size_t lines = 0;
    for (size_t at = text.find("\n      {\"run\":"); at != std::string::npos;
         at = text.find("\n      {\"run\":", at + 1))
        ++lines;
    CHECK(lines == verdicts.size());
}

TEST_CASE("matrix ratios: against the baseline's run of the same pair, else unknown") {
    Report rep = matrix_of(3);
    Expectations e;
    e.metrics.push_back({"bandwidth", MetricBounds{std::nullopt, std::nullopt, 1.5, std::nullopt}});
    // Baseline tcp: 0 -> 1 at 1 Gb/s, 1 -> 0 at 4 Gb/s; no 0 -> 2.
    rep.runs.push_back(pair_run("bw-tcp", "tcp", 0, 1, {bandwidth_row(1)}, {}));
    rep.runs.push_back(pair_run("bw-tcp", "tcp", 1, 0, {bandwidth_row(4)}, {}));
    for (auto [c, s] : {std::pair{0, 1}, {1, 0}, {0, 2}})
        rep.runs.push_back(pair_run("bw-rdma", "rsocket", c, s, {bandwidth_row(2)}, e));
    const auto v = evaluate_expectations(rep);
    REQUIRE(v.size() == 3);
    CHECK(v[0].outcome == Outcome::Pass); // 2 / 1
    CHECK(*v[0].baseline == 1);
    CHECK(v[1].outcome == Outcome::Fail); // 2 / 4, not 2 / the median of every pair
    CHECK(*v[1].value == Approx(0.5));
    CHECK(v[2].outcome == Outcome::Unknown);
    CHECK(v[2].reason == "no value of baseline 'tcp' on this link");
    CHECK(v[2].hint == "give an absolute bound: expect.bandwidth.min = ... Gb/s");
    CHECK(verdict_text(v[2]).find(" on this link; give an absolute bound: ") != std::string::npos);

    rep.baseline = "none";
    const auto none = evaluate_expectations(rep);
    CHECK(none[0].reason == "no value of baseline 'none': no run of that variant in this matrix");
}

TEST_CASE("an unknown link rate suggests the absolute bound, HTML verdicts are rounded") {
    Report rep;
    Expectations e;
    e.link_fraction = 0.9;
    RunResult r = pair_run("bw", "tcp", 0, 1, {bandwidth_row(3.0448453843810785)}, e);
    r.pair.reset();
    r.path.client = SidePath{};
    r.path.client->interface.name = "lo";
    r.path.client->interface.speed = "unknown";
    rep.runs.push_back(r);
    Expectations abs;
    abs.metrics.push_back(
        {"bandwidth", MetricBounds{1.2345678, std::nullopt, std::nullopt, std::nullopt}});
    RunResult r2 = r;
    r2.name = "bw2";
    r2.expect = abs;
    rep.runs.push_back(r2);
    const auto v = evaluate_expectations(rep);
    REQUIRE(v.size() == 2);
    CHECK(v[0].outcome == Outcome::Unknown);
    CHECK(v[0].reason == "link rate unknown (lo speed unknown)");
    CHECK(verdict_text(v[0]) ==
          "bw: bandwidth as a fraction of the link rate, expected >= 0.9: link rate unknown (lo "
          "speed unknown); give an absolute bound: expect.bandwidth.min = 0.9 x the link's rate "
          "in Gb/s");
    std::ostringstream html;
    write_html_report(html, build_comparison({&rep}, CompareOptions{}), {&rep});
    const std::string h = html.str();
    CHECK(h.find("3.0448453843810785") == std::string::npos);
    CHECK(h.find("<td>3.04</td><td>1.23</td>") != std::string::npos);
}

TEST_CASE("matrix summaries: fractions of the line rate, the lists bounded, saying how many more") {
    // 12 ranks, all pairs, a 2.5 Gb/s link each; node11's links move 0.5
    // Gb/s (0.2 of the line rate) and every other link 2 Gb/s (0.8), against
    // link_fraction 0.9: every link fails, node11's furthest.
    const int n = 12;
    Report rep = matrix_of(n);
    Expectations e;
    e.link_fraction = 0.9;
    SidePath rxe;
    rxe.rdma = true;
    RdmaDevice d;
    d.name = "rxe0";
    d.rate = "2.5 Gb/sec (1X SDR)";
    rxe.devices.push_back(d);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            if (i == j) continue;
            const bool slow = i == n - 1 || j == n - 1;
            RunResult r = pair_run("bw", "tcp", i, j, {bandwidth_row(slow ? 0.5 : 2)}, e);
            r.path.client = rxe;
            r.path.server = rxe;
            rep.runs.push_back(std::move(r));
        }
    const MatrixVerdicts m = matrix_verdicts(rep, evaluate_expectations(rep));
    REQUIRE(m.links.size() == size_t(n * (n - 1)));
    CHECK(m.check == "link_fraction");
    CHECK(m.nodes[0].name == "node11");
    CHECK(tally_text(m, m.nodes[0]) ==
          "node11 (rank 11): 22 of 22 links FAIL, median 0.2 of line rate");
    CHECK(tally_text(m, m.nodes[1]) ==
          "node0 (rank 0): 22 of 22 links FAIL, median 0.8 of line rate");
    CHECK(m.links[0].miss == Approx(4.5)); // 0.9 / 0.2
    std::ostringstream out;
    write_matrix_verdicts_table(out, m);
    const std::string t = out.str();
    CHECK(t.find("  and 2 more nodes with links not passing\n") != std::string::npos);
    CHECK(t.find("  and 122 more (every verdict: the expectations below, or -o FILE.json)\n") !=
          std::string::npos);
    CHECK(
        t.find("FAIL    bw rank 0 (node0) -> rank 11 (node11) 64k_bw: bandwidth 0.5 Gb/s = 0.2 of "
               "rxe0 2.5 Gb/s, expected >= 0.9") != std::string::npos);
}
