// Matrix reports from a hand-made Report: the metric each run shows, the
// N x N cells, the slowest links and their ratios, the text table, the HTML
// heatmap, and the JSON round trip (schema 2: `matrix` and per-run `pair`).
#include "cmdbench/report/matrix/matrix_heat.hpp"
#include "cmdbench/report/matrix/matrix_view.hpp"
#include "cmdbench/report/matrix/report_matrix.hpp"
#include "cmdbench/report/old_metric_names.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/results_reader.hpp"
#include "cmdbench/report/run_counters.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cmdbench/plugin.h>
#include <sstream>
#include <stdexcept>

using namespace cmdbench;

namespace {

// A pingpong latency row: one-way p50 = rtt p50 / 2.
Row latency_row(const std::string &name, double bytes, double one_way_us) {
    Row row;
    row.name = name;
    row.metrics.push_back({"bytes", bytes, CMDBENCH_UNIT_BYTES});
    HistSummary s;
    s.count = 10000; // enough for every percentile
    s.min = s.max = uint64_t(one_way_us * 2000);
    s.p50 = s.p90 = s.p99 = s.p999 = s.p9999 = s.max;
    row.hists.push_back({"rtt", s});
    give_old_name_meanings(row); // as read from a plugin that declared none
    return row;
}

Row bandwidth_row(const std::string &name, double bytes, double gbps) {
    Row row;
    row.name = name;
    row.metrics = {{"bytes", bytes, CMDBENCH_UNIT_BYTES},
                   {"xfers", 100, CMDBENCH_UNIT_COUNT},
                   {"Gb/sec", gbps, CMDBENCH_UNIT_GBPS}};
    give_old_name_meanings(row); // as read from a plugin that declared none
    return row;
}

RunResult pair_run(const std::string &name, int client, int server, std::vector<Row> rows,
                   RunStatus status = RunStatus::Ok) {
    RunResult r;
    r.name = name;
    r.test = "pingpong";
    r.transport = "tcp";
    r.group = "pingpong";
    r.variant = "tcp";
    r.status = status;
    if (status != RunStatus::Ok) r.error = "connection refused";
    r.rows = std::move(rows);
    r.pair = RunPair{client, server, "node" + std::to_string(client),
                     "node" + std::to_string(server), 1};
    return r;
}

// 4 ranks, all pairs: latency 10 us everywhere except 2 -> 3 (40 us) and
// 1 -> 0 (20 us); bandwidth 10 Gb/s except 3 -> 1 (2 Gb/s); pair 0 -> 1 of
// the bandwidth run failed.
Report four_ranks() {
    Report rep;
    rep.context.hostname = "node0";
    MatrixInfo m;
    m.pattern = "all-pairs";
    m.rounds = 6;
    m.launcher = "PMIx test";
    for (int r = 0; r < 4; ++r)
        m.ranks.push_back({r, "node" + std::to_string(r), "10.0.0." + std::to_string(r) + ":7000"});
    rep.matrix = m;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            if (i == j) continue;
            const double lat = i == 2 && j == 3 ? 40 : i == 1 && j == 0 ? 20 : 10;
            rep.runs.push_back(
                pair_run("latency", i, j,
                         {latency_row("64_lat", 64, lat), latency_row("4k_lat", 4096, 99)}));
        }
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            if (i == j) continue;
            const double bw = i == 3 && j == 1 ? 2 : 10;
            if (i == 0 && j == 1)
                rep.runs.push_back(pair_run("bandwidth", i, j, {}, RunStatus::Failed));
            else
                rep.runs.push_back(pair_run(
                    "bandwidth", i, j,
                    {bandwidth_row("64_bw", 64, 0.5), bandwidth_row("64k_bw", 65536, bw)}));
        }
    return rep;
}

} // namespace

TEST_CASE("matrix view: latency p50 of the smallest row, slowest links by ratio to the median") {
    const auto views = matrix_views(four_ranks());
    REQUIRE(views.size() == 2);
    const MatrixView &lat = views[0];
    CHECK(lat.run == "latency");
    REQUIRE(lat.metric);
    CHECK(*lat.metric == CompareMetric::LatencyP50);
    CHECK(lat.item == "64_lat");
    CHECK(lat.pairs == 12);
    CHECK(lat.filled == 12);
    CHECK(*lat.cells[2][3].value == Approx(40));
    CHECK_FALSE(lat.cells[1][1].scheduled);
    REQUIRE(lat.median);
    CHECK(*lat.median == Approx(10));
    REQUIRE(lat.slowest.size() == MatrixInfo::kDefaultWorstLinks);
    CHECK((lat.slowest[0].client == 2 && lat.slowest[0].server == 3));
    CHECK(lat.slowest[0].ratio == Approx(4));
    CHECK((lat.slowest[1].client == 1 && lat.slowest[1].server == 0));
    CHECK(lat.slowest[1].ratio == Approx(2));
}

TEST_CASE("matrix view: [matrix] worst_links sets how many slowest links are listed") {
    Report report = four_ranks();
    report.matrix->worst_links = 2;
    CHECK(matrix_views(report)[0].slowest.size() == 2);
    report.matrix->worst_links = 100; // more than the 12 pairs: all of them
    CHECK(matrix_views(report)[0].slowest.size() == 12);
    std::ostringstream text;
    write_json(text, report);
    CHECK(parse_results(text.str(), "doc").matrix->worst_links == 100);
}

TEST_CASE("matrix view: bandwidth of the largest row, lowest is slowest, failures kept") {
    const MatrixView bw = matrix_views(four_ranks())[1];
    REQUIRE(bw.metric);
    CHECK(*bw.metric == CompareMetric::Bandwidth);
    CHECK(bw.item == "64k_bw");
    CHECK(bw.pairs == 12);
    CHECK(bw.filled == 11);
    CHECK_FALSE(bw.cells[0][1].value);
    CHECK(bw.cells[0][1].problem == "failed: connection refused");
    CHECK((bw.slowest[0].client == 3 && bw.slowest[0].server == 1));
    CHECK(bw.slowest[0].ratio == Approx(0.2));
}

TEST_CASE("matrix table: the 4x4 matrix, slowest links with nodes and ratios, failures") {
    std::ostringstream out;
    write_matrix_table(out, four_ranks());
    const std::string t = out.str();
    INFO(t);
    CHECK(t.find("matrix: all-pairs, 4 ranks, 6 rounds per run") != std::string::npos);
    CHECK(t.find("latency (pingpong/tcp): latency_p50 (us) of row 64_lat; 12 of 12 pairs") !=
          std::string::npos);
    // Row 2 of the latency matrix: diagonal dot, 40 in column 3.
    CHECK(t.find("\n   2 10.0 10.0    . 40.0\n") != std::string::npos);
    CHECK(t.find("  2 -> 3  (node2 -> node3)  40.0 us  4.00x") != std::string::npos);
    CHECK(t.find("  3 -> 1  (node3 -> node1)  2.00 Gb/s  0.20x") != std::string::npos);
    CHECK(t.find("FAIL") != std::string::npos);
    CHECK(t.find("  0 -> 1: failed: connection refused") != std::string::npos);
}

TEST_CASE("matrix HTML: a heatmap cell per pair, the slowest links, no script") {
    std::ostringstream out;
    write_matrix_html(out, four_ranks());
    const std::string h = out.str();
    CHECK(h.find("<table class=\"heatmap\">") != std::string::npos);
    CHECK(h.find("title=\"2 (node2) → 3 (node3): 40.0 us\"") != std::string::npos);
    // By the ratio to the median (10 us), log scale: 4x worse is orange
    // (log10 4 = 0.6 of the way to red), the median green.
    CHECK(h.find("background:hsl(48,70%,72%)\" title=\"2 (node2) → 3 (node3)") !=
          std::string::npos);
    CHECK(h.find("background:hsl(120,70%,72%)\" title=\"0 (node0) → 1 (node1)") !=
          std::string::npos);
    CHECK(h.find("class=\"legend\">Colour: the ratio of a cell to its run's median, on a log") !=
          std::string::npos);
    CHECK(h.find("<li>2 (node2) → 3 (node3): 40.0 us, 4.00×</li>") != std::string::npos);
    CHECK(h.find("class=\"fail\"") != std::string::npos);
    CHECK(h.find("<script") == std::string::npos);
    size_t cells = 0;
    for (size_t at = h.find("<td style="); at != std::string::npos;
         at = h.find("<td style=", at + 1))
        ++cells;
    CHECK(cells == 12 + 11);
}

namespace {

// The latency run measured under 2 flows moving 3.5 Gb/s, with TCP
// retransmits on pair 2 -> 3 (two machines: each side's counted) and only
// zeros and traffic elsewhere.
Report four_ranks_under_load() {
    Report rep = four_ranks();
    for (RunResult &r : rep.runs) {
        if (r.name != "latency") continue;
        r.background = BackgroundLoad{"throughput", "tcp", 2, {}, 3.5, {}};
        r.counters.client = SideCounters{
            {"tcp", std::map<std::string, int64_t>{{"InSegs", 40}, {"RetransSegs", 0}}}};
        r.counters.server = r.counters.client;
        if (r.pair->client == 2 && r.pair->server == 3)
            (*(*r.counters.client)["tcp"])["RetransSegs"] = 4;
    }
    return rep;
}

const RunResult &run_of(const Report &rep, const std::string &name, int client, int server) {
    for (const RunResult &r : rep.runs)
        if (r.name == name && r.pair->client == client && r.pair->server == server) return r;
    throw std::logic_error("no such run");
}

} // namespace

TEST_CASE("matrix table and HTML: each pair's background Gb/s and counter lines, word for word") {
    const Report rep = four_ranks_under_load();
    const RunResult &bad = run_of(rep, "latency", 2, 3);
    REQUIRE(counter_lines(bad.counters).size() == 1);
    const std::string counters = counter_lines(bad.counters)[0];
    CHECK(counters == "counters: retransmits +4: client tcp RetransSegs +4");
    const std::string load = "under load: 2 flows of throughput over tcp moved 3.500 Gb/s (the "
                             "sum over flows) while this run was measured";
    const MatrixView lat = matrix_views(rep)[0];
    CHECK(lat.notes.size() == 13); // a background line a pair, one counters line
    CHECK(lat.notes_total == 13);
    CHECK(matrix_views(rep)[1].notes.empty()); // the bandwidth run: nothing to say

    std::ostringstream out;
    write_matrix_table(out, rep);
    const std::string t = out.str();
    INFO(t);
    CHECK(t.find("\n  2 -> 3: " + load + "\n  2 -> 3: " + counters + "\n") != std::string::npos);
    CHECK(t.find("  0 -> 1: " + load + "\n") != std::string::npos);
    CHECK(t.find("  0 -> 1: counters:") == std::string::npos); // zeros and traffic: no line
    CHECK(t.find("more of these lines") == std::string::npos);

    std::ostringstream page;
    write_matrix_html(page, rep);
    const std::string h = page.str();
    CHECK(h.find("<li>2 → 3: " + counters + "</li>") != std::string::npos);
    CHECK(h.find("<li>1 → 0: " + load + "</li>") != std::string::npos);
    // The heatmap cell's tooltip carries them too.
    CHECK(h.find("title=\"2 (node2) → 3 (node3): 40.0 us\n2 → 3: " + load + "\n2 → 3: " + counters +
                 "\"") != std::string::npos);
}

TEST_CASE("matrix table: past 100 pair lines, the rest is counted and left to the JSON") {
    Report rep = four_ranks_under_load();
    for (RunResult &r : rep.runs)
        if (r.background) r.background->notes.assign(10, "a flow ended early");
    const MatrixView lat = matrix_views(rep)[0];
    CHECK(lat.notes_total == 12 * 11 + 1);
    std::ostringstream out;
    write_matrix_table(out, rep);
    const std::string t = out.str();
    CHECK(t.find("  ... and 33 more of these lines: every pair's background and counters are "
                 "in the JSON\n") != std::string::npos);
    size_t lines = 0;
    for (size_t at = t.find("! a flow ended early"); at != std::string::npos;
         at = t.find("! a flow ended early", at + 1))
        ++lines;
    // Pairs 0 -> 1 to 2 -> 3 (the ninth) have 11 lines each and 2 -> 3 its
    // counters too: the 100 listed end there, with 9 pairs' 10 notes.
    CHECK(lines == 90);
}

TEST_CASE("matrix heat scale: by the log ratio to the median, noise near it, outliers at the end") {
    // Latency: worse is higher. A 16% spread around the median stays within
    // a tenth of the scale; 41x worse is at its end.
    CHECK(heat_position(100, 100, false) == 0);
    CHECK(std::abs(heat_position(108, 100, false)) < 0.05);
    CHECK(std::abs(heat_position(92, 100, false)) < 0.05);
    CHECK(heat_position(4100, 100, false) == 1);
    CHECK(heat_position(1000, 100, false) == Approx(1));
    CHECK(heat_position(200, 100, false) == Approx(std::log10(2.0)));
    // Bandwidth: worse is lower.
    CHECK(heat_position(1, 41, true) == 1);
    CHECK(heat_position(45, 41, true) < 0);
    CHECK(heat_position(0, 100, false) == 0);
    CHECK(heat_color(0) == "hsl(120,70%,72%)");
    CHECK(heat_color(1) == "hsl(0,70%,72%)");
    CHECK(heat_color(5) == "hsl(0,70%,72%)");
    CHECK(heat_color(-1) == "hsl(210,70%,72%)");
}

TEST_CASE("matrix HTML: one 41x-slower link is red, a 16% spread among the others stays green") {
    Report rep = four_ranks();
    // The reported case: 55-64 us everywhere, one link at 2253 us.
    double us = 55;
    for (RunResult &r : rep.runs)
        if (r.name == "latency" && r.pair) {
            const bool outlier = r.pair->client == 2 && r.pair->server == 3;
            r.rows = {latency_row("64_lat", 64, outlier ? 2253 : us)};
            if (!outlier) us = us >= 64 ? 55 : us + 1;
        }
    std::ostringstream out;
    write_matrix_html(out, rep);
    const std::string h = out.str();
    const std::string heat = h.substr(0, h.find("<h2>bandwidth"));
    CHECK(heat.find("background:hsl(0,70%,72%)\" title=\"2 (node2) → 3 (node3): 2253 us") !=
          std::string::npos);
    int cells = 0;
    for (size_t at = heat.find("<td style=\"background:hsl("); at != std::string::npos;
         at = heat.find("<td style=\"background:hsl(", at + 1)) {
        const int hue = std::stoi(heat.substr(at + 26));
        const size_t title = heat.find("title=\"", at) + 7;
        if (heat.substr(title, heat.find(':', title) - title) != "2 (node2) → 3 (node3)") {
            CHECK(hue >= 110);
            CHECK(hue <= 130);
        }
        ++cells;
    }
    CHECK(cells == 12);
}

TEST_CASE("matrix JSON: schema 2 with matrix and pair, read back as written") {
    std::ostringstream out;
    const Report rep = four_ranks();
    write_json(out, rep);
    const Report back = parse_results(out.str(), "m.json");
    REQUIRE(back.matrix);
    CHECK(back.matrix->pattern == "all-pairs");
    CHECK(back.matrix->rounds == 6);
    CHECK(back.matrix->launcher == "PMIx test");
    REQUIRE(back.matrix->ranks.size() == 4);
    CHECK(back.matrix->ranks[3].address == "10.0.0.3:7000");
    REQUIRE(back.runs.size() == 24);
    REQUIRE(back.runs[5].pair);
    CHECK(back.runs[5].pair->client == rep.runs[5].pair->client);
    CHECK(back.runs[5].pair->server == rep.runs[5].pair->server);
    CHECK(back.runs[5].pair->server_node == rep.runs[5].pair->server_node);
    // Matrix documents came with version 2; the writer's own is at least that.
    CHECK(kResultsSchemaVersion >= 2);
    CHECK(out.str().find("\"schema_version\": " + std::to_string(kResultsSchemaVersion)) !=
          std::string::npos);
    // Single-pair documents have neither.
    Report single = rep;
    single.matrix.reset();
    for (auto &r : single.runs)
        r.pair.reset();
    std::ostringstream plain;
    write_json(plain, single);
    CHECK(plain.str().find("\"matrix\"") == std::string::npos);
    CHECK(plain.str().find("\"pair\"") == std::string::npos);
}
