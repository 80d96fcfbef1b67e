// What a matrix report says besides its numbers: each rank's data path
// (device, link rate, MTU, CPUs, software RDMA), colours against an absolute
// reference (the best rail, the link rate) as well as the median, every rail
// of an all-rails latency run, a pair not run apart from a failed one, and a
// heatmap of 1,024 ranks that stays small.
#include "cmdbench/report/matrix/matrix_heat.hpp"
#include "cmdbench/report/matrix/matrix_ranks.hpp"
#include "cmdbench/report/matrix/matrix_view.hpp"
#include "cmdbench/report/matrix/report_matrix.hpp"
#include "cmdbench/report/old_metric_names.hpp"

#include <catch2/catch.hpp>
#include <cmdbench/plugin.h>
#include <sstream>

using namespace cmdbench;

namespace {

Row latency_row(const std::string &name, double one_way_us) {
    Row row;
    row.name = name;
    row.metrics.push_back({"bytes", 64, CMDBENCH_UNIT_BYTES});
    HistSummary s;
    s.count = 10000;
    s.min = s.max = uint64_t(one_way_us * 2000);
    s.p50 = s.p90 = s.p99 = s.p999 = s.p9999 = s.max;
    row.hists.push_back({"rtt", s});
    give_old_name_meanings(row);
    return row;
}

Row bandwidth_row(const std::string &name, double gbps) {
    Row row;
    row.name = name;
    row.metrics = {{"bytes", 65536, CMDBENCH_UNIT_BYTES},
                   {"xfers", 100, CMDBENCH_UNIT_COUNT},
                   {"Gb/sec", gbps, CMDBENCH_UNIT_GBPS}};
    give_old_name_meanings(row);
    return row;
}

SidePath rxe_side(const std::string &device) {
    SidePath s;
    s.rdma = true;
    s.interface.name = "eth0";
    s.interface.mtu = "1500";
    RdmaDevice d;
    d.name = device;
    d.driver = "rxe";
    d.rate = "10 Gb/sec (1X QDR)";
    d.active_mtu = "1024";
    s.devices.push_back(d);
    SideAffinity a;
    a.cpus_allowed = "0-1";
    s.affinity = a;
    return s;
}

Report ranks(int n) {
    Report rep;
    MatrixInfo m;
    m.pattern = "all-pairs";
    m.rounds = unsigned(n - 1);
    m.launcher = "PMIx test";
    for (int r = 0; r < n; ++r)
        m.ranks.push_back({r, "node" + std::to_string(r), "10.0.0.1:7000"});
    rep.matrix = m;
    return rep;
}

RunResult pair_run(const std::string &name, int client, int server, std::vector<Row> rows) {
    RunResult r;
    r.name = name;
    r.test = "pingpong";
    r.transport = "tcp";
    r.rows = std::move(rows);
    r.pair = RunPair{client, server, "node" + std::to_string(client),
                     "node" + std::to_string(server), 1};
    return r;
}

// All pairs of `n` ranks of one run, `make(i, j)` giving each its rows.
template <class Make> void all_pairs(Report &rep, int n, const std::string &name, Make make) {
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            if (i != j) rep.runs.push_back(pair_run(name, i, j, make(i, j)));
}

std::string table_of(const Report &rep) {
    std::ostringstream out;
    write_matrix_table(out, rep);
    return out.str();
}

std::string html_of(const Report &rep) {
    std::ostringstream out;
    write_matrix_html(out, rep);
    return out.str();
}

int hue_in(const std::string &html, const std::string &title) {
    const size_t at = html.find("\" title=\"" + title);
    REQUIRE(at != std::string::npos);
    return std::stoi(html.substr(html.rfind("hsl(", at) + 4));
}

} // namespace

TEST_CASE("matrix ranks: device, link rate, MTU, CPUs and software RDMA, ranks alike as one") {
    Report rep = ranks(4);
    all_pairs(rep, 4, "lat", [](int, int) { return std::vector<Row>{latency_row("64_lat", 10)}; });
    for (RunResult &r : rep.runs) {
        r.path.client = rxe_side("rxe0");
        r.path.server = rxe_side(r.pair->server == 3 ? "rxe1" : "rxe0");
    }
    const auto paths = matrix_rank_paths(rep);
    REQUIRE(paths.size() == 2);
    CHECK(paths[0].ranks == std::vector<int>{0, 1, 2});
    CHECK(paths[0].devices == "rxe0");
    CHECK(paths[0].rate == "10.0 Gb/s");
    CHECK(paths[0].mtu == "1024");
    CHECK(paths[0].cpus == "0-1");
    CHECK(paths[0].software == "rxe");
    CHECK(paths[1].ranks == std::vector<int>{3});
    CHECK(paths[1].devices == "rxe1, rxe0"); // first seen as rank 0's server

    const std::string t = table_of(rep);
    INFO(t);
    CHECK(t.find("data path per rank:\n  ranks 0-2 (node0, node1, node2): rxe0, link 10.0 Gb/s, "
                 "mtu 1024, cpus 0-1, software RDMA (rxe)\n  rank 3 (node3): rxe1, rxe0,") !=
          std::string::npos);
    CHECK(t.find("! software RDMA (rxe): these figures measure Soft-RoCE's") != std::string::npos);
    const std::string h = html_of(rep);
    CHECK(h.find("<h2>Data path per rank</h2>") != std::string::npos);
    CHECK(h.find("<tr><td>0-2</td><td>node0, node1, node2</td><td>rxe0</td><td>10.0 Gb/s</td>"
                 "<td>1024</td><td>0-1</td><td>yes (rxe)</td></tr>") != std::string::npos);
    CHECK(h.find("id=\"software-rdma\"") != std::string::npos);
}

TEST_CASE("matrix heat: a rail slow on every pair is coloured against the best rail") {
    Report rep = ranks(3);
    all_pairs(rep, 3, "lat @rxe0",
              [](int, int) { return std::vector<Row>{latency_row("64_lat", 10)}; });
    all_pairs(rep, 3, "lat @rxe1",
              [](int, int) { return std::vector<Row>{latency_row("64_lat", 30)}; });
    const auto views = matrix_views(rep);
    REQUIRE(views.size() == 2);
    CHECK(*views[1].best_rail_median == Approx(10));
    CHECK(views[1].best_rail == "rxe0");
    CHECK(reference_line(views[1]) == "median 30.0 us, 3.00x the best rail's (rxe0: 10.0 us)");
    CHECK(heat_reference(views[1]) == "the worse of the run's median and the best rail's median "
                                      "(rxe0)");
    // 3x worse than the best rail: near yellow, not its own median's green.
    CHECK(cell_heat(views[1], views[1].cells[0][1]) == Approx(heat_position(30, 10, false)));
    CHECK(cell_heat(views[0], views[0].cells[0][1]) == 0);
    const std::string h = html_of(rep);
    const std::string rxe1 = h.substr(h.find("<h2>lat @rxe1"));
    CHECK(hue_in(rxe1, "0 (node0) → 1 (node1)") < 80);
    CHECK(hue_in(h, "0 (node0) → 1 (node1)") == 120);
    CHECK(rxe1.find(
              "Colours against the worse of the run&#39;s median and the best rail&#39;s median "
              "(rxe0)") != std::string::npos);
    CHECK(table_of(rep).find("median 30.0 us, 3.00x the best rail's (rxe0: 10.0 us)\n") !=
          std::string::npos);
}

TEST_CASE("matrix heat: bandwidth at a tenth of the link rate is red though at the median") {
    Report rep = ranks(3);
    all_pairs(rep, 3, "bw", [](int, int) { return std::vector<Row>{bandwidth_row("64k", 1)}; });
    for (RunResult &r : rep.runs)
        r.path.client = r.path.server = rxe_side("rxe0");
    const MatrixView v = matrix_views(rep)[0];
    REQUIRE(v.cells[0][1].link_gbps);
    CHECK(*v.cells[0][1].link_gbps == Approx(10));
    CHECK(cell_heat(v, v.cells[0][1]) == Approx(1));
    CHECK(reference_line(v) == "median 1.00 Gb/s, 0.10 of the link rate (median over pairs)");
    CHECK(html_of(rep).find(
              "Colours against the worse of the run&#39;s median and the pair&#39;s link "
              "rate") != std::string::npos);
}

TEST_CASE("matrix views: every rail of an all-rails latency run, not only the first") {
    Report rep = ranks(2);
    all_pairs(rep, 2, "lat @all rails", [](int, int) {
        return std::vector<Row>{latency_row("rxe0/64_lat", 10), latency_row("rxe1/64_lat", 25)};
    });
    for (RunResult &r : rep.runs) {
        r.rails = {RailPart{}, RailPart{}};
        r.rails[0].label = "rxe0";
        r.rails[1].label = "rxe1";
    }
    const auto views = matrix_views(rep);
    REQUIRE(views.size() == 2);
    CHECK(views[0].rail == "rxe0");
    CHECK(views[0].item == "rxe0/64_lat");
    CHECK(*views[0].cells[0][1].value == Approx(10));
    CHECK(views[1].rail == "rxe1");
    CHECK(*views[1].cells[0][1].value == Approx(25));
    CHECK(views[1].best_rail == "rxe0");
    const std::string h = html_of(rep);
    CHECK(h.find("of row rxe0/64_lat") != std::string::npos);
    CHECK(h.find("of row rxe1/64_lat") != std::string::npos);
    CHECK(h.find("<h2>lat @all rails, rail rxe1 <span") != std::string::npos);
    CHECK(table_of(rep).find("\nlat @all rails, rail rxe0 (pingpong/tcp): latency_p50") !=
          std::string::npos);
}

TEST_CASE("matrix: a pair not run has its own mark, apart from a failed pair's") {
    Report rep = ranks(3);
    all_pairs(rep, 3, "lat", [](int, int) { return std::vector<Row>{latency_row("64_lat", 10)}; });
    for (RunResult &r : rep.runs) {
        if (r.pair->client == 2) {
            r.status = RunStatus::Interrupted;
            r.error = "not run: rank 2 (node2) is gone";
            r.rows.clear();
        } else if (r.pair->client == 0 && r.pair->server == 1) {
            r.status = RunStatus::Failed;
            r.error = "connection refused";
            r.rows.clear();
        }
    }
    const MatrixView v = matrix_views(rep)[0];
    CHECK(v.cells[2][0].not_run);
    CHECK_FALSE(v.cells[0][1].not_run);
    const std::string t = table_of(rep);
    INFO(t);
    CHECK(t.find("\n   0    . FAIL 10.0\n") != std::string::npos);
    CHECK(t.find("\n   2   --   --    .\n") != std::string::npos);
    CHECK(t.find("--: not run") != std::string::npos);
    const std::string h = html_of(rep);
    CHECK(h.find("<td class=\"notrun\" title=\"2 (node2) → 0 (node0): interrupted: not run") !=
          std::string::npos);
    CHECK(h.find("<td class=\"fail\" title=\"0 (node0) → 1 (node1): failed") != std::string::npos);
    CHECK(h.find("–</span>not run") != std::string::npos);
}

// Tagged [scale]: a million pairs take minutes under the sanitizers.
TEST_CASE("matrix HTML: 1,024 ranks are an image of a pixel a pair, and stay small", "[scale]") {
    constexpr int n = 1024;
    Report rep = ranks(n);
    rep.runs.reserve(size_t(n) * (n - 1));
    all_pairs(rep, n, "lat", [](int i, int j) {
        return std::vector<Row>{latency_row("64_lat", 10 + (i * 7 + j * 13) % 5)};
    });
    const std::string h = html_of(rep);
    CHECK(h.find("<img class=\"heatmap\" width=\"1024\" height=\"1024\"") != std::string::npos);
    CHECK(h.find("src=\"data:image/png;base64,iVBORw0KGgo") != std::string::npos);
    CHECK(h.find("img-src data:") != std::string::npos);
    CHECK(h.find("<table class=\"heatmap\">") == std::string::npos);
    CHECK(h.size() < 1'000'000);
    // Ranks alike are one line of the data path section.
    CHECK(h.find("<td>0-1023</td><td>node0, node1, node2, node3, node4, node5, node6, node7 and "
                 "1016 more</td>") != std::string::npos);
    // The ranks' own table is folded away, so the heatmap comes first.
    CHECK(h.find("<details><summary>each rank's node and server</summary>") != std::string::npos);
}

TEST_CASE("matrix HTML: a few ranks keep the ranks' table, unfolded, and no image") {
    const std::string few = html_of(ranks(2));
    CHECK(few.find("<img") == std::string::npos);
    CHECK(few.find("<details>") == std::string::npos);
}

TEST_CASE("heat_rgb: the colours heat_color names") {
    const Rgb green = heat_rgb(0), red = heat_rgb(1);
    // hsl(120,70%,72%) = rgb(134,234,134); hsl(0,70%,72%) = rgb(234,134,134).
    CHECK(int(green.r) == 134);
    CHECK(int(green.g) == 234);
    CHECK(int(green.b) == 134);
    CHECK(int(red.r) == 234);
    CHECK(int(red.g) == 134);
    CHECK(int(red.b) == 134);
}
