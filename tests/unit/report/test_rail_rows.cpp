// The rows of a run on every rail at once (rail_rows.hpp): what is added up
// across rails and what is not.
#include "cmdbench/report/link_rate.hpp"
#include "cmdbench/report/rail_rows.hpp"

#include <catch2/catch.hpp>
#include <cmdbench/plugin.h>

using namespace cmdbench;

namespace {

Metric metric(const std::string &key, double value, uint32_t unit,
              const cmdbench_metric_meaning &m) {
    return Metric{key, value, unit, MetricMeaning{m.kind, m.better, m.flags}};
}

Row row(const std::string &name, double gbps, double size, double moved, double lat_us) {
    Row r;
    r.name = name;
    r.metrics = {metric("bw", gbps, CMDBENCH_UNIT_GBPS, CMDBENCH_MEANING_BANDWIDTH),
                 metric("size", size, CMDBENCH_UNIT_BYTES, CMDBENCH_MEANING_MESSAGE_SIZE),
                 metric("moved", moved, CMDBENCH_UNIT_BYTES, CMDBENCH_MEANING_MOVED),
                 metric("lat", lat_us, CMDBENCH_UNIT_USEC, CMDBENCH_MEANING_LATENCY)};
    return r;
}

const Metric *find(const Row &r, const std::string &key) {
    for (const Metric &m : r.metrics)
        if (m.key == key) return &m;
    return nullptr;
}

} // namespace

TEST_CASE("rail rows: each rail's rows labelled, then totals of what adds up") {
    const std::vector<Row> rows = rail_rows({{"rxe0", {row("64k", 1.5, 65536, 1000, 10)}},
                                             {"rxe1", {row("64k", 2.5, 65536, 3000, 30)}}});
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].name == "rxe0/64k");
    CHECK(rows[1].name == "rxe1/64k");
    CHECK(rows[1].metrics[0].value == 2.5);
    const Row &total = rows[2];
    CHECK(total.name == "64k");
    REQUIRE(find(total, "bw"));
    CHECK(find(total, "bw")->value == 4.0);
    REQUIRE(find(total, "moved"));
    CHECK(find(total, "moved")->value == 4000);
    // A message size and a latency are no sums.
    CHECK_FALSE(find(total, "size"));
    CHECK_FALSE(find(total, "lat"));
}

TEST_CASE("rail rows: no total for a row or metric some rail lacks") {
    Row only_bw;
    only_bw.name = "64k";
    only_bw.metrics = {metric("other", 1, CMDBENCH_UNIT_GBPS, CMDBENCH_MEANING_BANDWIDTH)};
    const std::vector<Row> rows =
        rail_rows({{"a", {row("64k", 1, 1, 1, 1), row("1m", 1, 1, 1, 1)}}, {"b", {only_bw}}});
    // a/64k, a/1m, b/64k; "64k" has no metric both rails have; "1m" only on a.
    REQUIRE(rows.size() == 3);
    CHECK(rows[2].name == "b/64k");
}

TEST_CASE("rails overlap: latest start to earliest end, never negative") {
    RailPart a, b;
    a.start_seconds = 0.0;
    a.wall_seconds = 2.0;
    b.start_seconds = 0.5;
    b.wall_seconds = 3.0;
    CHECK(rails_overlap_seconds({a, b}) == Approx(1.5));
    b.start_seconds = 2.5;
    CHECK(rails_overlap_seconds({a, b}) == 0);
    CHECK(rails_overlap_seconds({}) == 0);
}

TEST_CASE("rails' link rate: a rail's row against its rail, the totals against the sum") {
    const auto rail = [](const std::string &device) {
        RailPart part;
        part.label = device;
        SidePath side;
        side.rdma = true;
        RdmaDevice d;
        d.name = device;
        d.rate = "2.5 Gb/sec (1X SDR)";
        side.devices.push_back(d);
        part.path.client = side;
        return part;
    };
    RunResult run;
    run.rails = {rail("rxe0"), rail("rxe1")};
    const auto sum = result_link_rate(run);
    REQUIRE(sum);
    CHECK(sum->bits_per_second == 5e9);
    CHECK(sum->name == "rxe0+rxe1");
    REQUIRE(row_link_rate(run, "rxe1/64k"));
    CHECK(row_link_rate(run, "rxe1/64k")->bits_per_second == 2.5e9);
    CHECK(row_link_rate(run, "rxe1/64k")->name == "rxe1");
    CHECK(row_link_rate(run, "64k")->bits_per_second == 5e9);
    // One rail's rate unknown: no sum.
    run.rails[1].path.client->devices[0].rate = "unknown";
    CHECK_FALSE(result_link_rate(run));
}
