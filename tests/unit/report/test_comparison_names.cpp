// Runs of one test and transport under different names (`tcp-bw` and
// `tcp-bw-abs`) are different runs: the comparison and the HTML charts
// show each apart, never one point whose median is of neither.
#include "cmdbench/report/compare/comparison.hpp"
#include "cmdbench/report/old_metric_names.hpp"

#include <catch2/catch.hpp>
#include <cmdbench/plugin.h>
#include <sstream>

using namespace cmdbench;

namespace {

RunResult bw_run(const std::string &name, const std::string &transport, double gbps,
                 unsigned repeat = 1, unsigned repeats = 1) {
    RunResult r;
    r.name = name;
    r.test = "throughput";
    r.transport = transport;
    r.repeat = repeat;
    r.repeats = repeats;
    Row row;
    row.name = "64k";
    row.metrics = {{"bytes", 65536, CMDBENCH_UNIT_BYTES}, {"Gb/sec", gbps, CMDBENCH_UNIT_GBPS}};
    give_old_name_meanings(row);
    r.rows = {row};
    return r;
}

const CompareRow *bandwidth_of(const Comparison &c, const std::string &group) {
    for (const CompareRow &r : c.rows)
        if (r.group == group && r.metric == CompareMetric::Bandwidth) return &r;
    return nullptr;
}

} // namespace

TEST_CASE("comparison: differently named runs of one test and transport are not repeats") {
    Report rep;
    rep.runs = {bw_run("tcp-bw", "tcp", 0.52), bw_run("tcp-bw-abs", "tcp", 3.04)};
    const Comparison c = build_comparison({&rep}, {});
    const CompareRow *plain = bandwidth_of(c, "throughput (tcp-bw)");
    const CompareRow *abs = bandwidth_of(c, "throughput (tcp-bw-abs)");
    REQUIRE(plain);
    REQUIRE(abs);
    CHECK(plain->cells[0].value->n == 1);
    CHECK(plain->cells[0].value->median == Approx(0.52));
    CHECK(abs->cells[0].value->median == Approx(3.04));
    CHECK_FALSE(bandwidth_of(c, "throughput"));
    REQUIRE_FALSE(c.notes.empty());
    CHECK(c.notes.back() == "runs 'tcp-bw' and 'tcp-bw-abs' are all variant tcp of group "
                            "throughput: each is a group of its own, not a repeat of the others "
                            "(give them a `group` to compare each with other variants)");

    std::ostringstream html;
    write_html_report(html, c, {&rep});
    const std::string h = html.str();
    CHECK(h.find("Medians over repeats") == std::string::npos);
    CHECK(h.find("1.78") == std::string::npos);
    CHECK(h.find("throughput (tcp-bw-abs)") != std::string::npos);
}

TEST_CASE("comparison: repeats of one name still make one spread, one name per variant stays "
          "one group") {
    Report rep;
    rep.runs = {bw_run("tcp-bw", "tcp", 1, 1, 2), bw_run("rdma-bw", "rsocket", 4, 1, 2),
                bw_run("tcp-bw", "tcp", 3, 2, 2), bw_run("rdma-bw", "rsocket", 6, 2, 2)};
    const Comparison c = build_comparison({&rep}, {});
    const CompareRow *row = bandwidth_of(c, "throughput");
    REQUIRE(row);
    REQUIRE(row->cells.size() == 2);
    CHECK(row->cells[0].value->n == 2);
    CHECK(row->cells[0].value->median == Approx(2));
    CHECK(row->cells[1].value->median == Approx(5));
    CHECK(c.notes.empty());
}
