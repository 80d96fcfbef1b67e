// Counters around a run (counter_reader.hpp, run_counters.hpp): sysfs and
// procfs read from fixture trees (tests/unit/host/counters: before/ and
// after/ a run, with an rxe port, a ConnectX port and an interface; the
// procfs texts are a real /proc/net/snmp and /proc/net/netstat), the
// classification of names, the deltas, and how results show them.
#include "cmdbench/host/machine/counter_reader.hpp"
#include "cmdbench/report/expect_rules.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/run_counters.hpp"
#include "cmdbench/report/verdict.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace cmdbench;

namespace {

const std::string kFixture = std::string(CMDBENCH_SOURCE_DIR) + "/tests/unit/host/counters/";

CounterSnapshot read_fixture(const std::string &which, const CounterSources &s) {
    return read_counters(s, kFixture + which + "/sys", kFixture + which + "/proc");
}

CounterSources all_sources() {
    CounterSources s;
    s.rdma_ports = {{"rxe0", 1}, {"mlx5_0", 1}, {"rxe9", 1}};
    s.interfaces = {"enp0s3", "nosuch0"};
    s.tcp = true;
    return s;
}

std::string file_text(const std::string &path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("the Tcp and TcpExt tables of procfs are read by name") {
    const auto tcp = parse_proc_net_table(file_text(kFixture + "before/proc/net/snmp"), "Tcp");
    REQUIRE(tcp.count("RetransSegs"));
    CHECK(tcp.count("MaxConn") == 0); // -1: a limit, not a counter
    CHECK(tcp.count("InSegs"));
    const auto ext =
        parse_proc_net_table(file_text(kFixture + "before/proc/net/netstat"), "TcpExt");
    CHECK(ext.count("TCPLostRetransmit"));
    CHECK(ext.count("TCPTimeouts"));
    // A prefix must match whole: "Tcp" is not "TcpExt".
    CHECK(parse_proc_net_table("TcpExt: A B\nTcpExt: 1 2\n", "Tcp").empty());
    const auto small = parse_proc_net_table("Ip: X\nIp: 9\nTcp: A B\nTcp: 1 2\n", "Tcp");
    CHECK(small == std::map<std::string, uint64_t>{{"A", 1}, {"B", 2}});
    CHECK(parse_proc_net_table("", "Tcp").empty());
}

TEST_CASE("a snapshot reads every port and interface named, and marks the missing ones") {
    const CounterSnapshot s = read_fixture("before", all_sources());
    REQUIRE(s.at("rdma rxe0/1"));
    CHECK(s.at("rdma rxe0/1")->at("sent_pkts") == 1000);
    CHECK(s.at("rdma rxe0/1")->count("lifespan") == 0); // a setting, not a counter
    REQUIRE(s.at("rdma mlx5_0/1"));
    CHECK(s.at("rdma mlx5_0/1")->at("port_xmit_data") == 1000); // counters/
    CHECK(s.at("rdma mlx5_0/1")->at("out_of_buffer") == 5);     // hw_counters/
    CHECK_FALSE(s.at("rdma rxe9/1"));                           // no such device
    REQUIRE(s.at("net enp0s3"));
    CHECK(s.at("net enp0s3")->at("rx_bytes") == 10000);
    CHECK_FALSE(s.at("net nosuch0"));
    REQUIRE(s.at("tcp"));
    CHECK(s.at("tcp")->count("RetransSegs"));
    CHECK(s.at("tcp")->count("TCPTimeouts"));
    CHECK(s.at("tcp")->count("RtoMin") == 0); // only the counters kept
}

TEST_CASE("deltas are after minus before, absent where either side could not read") {
    const SideCounters d =
        counter_deltas(read_fixture("before", all_sources()), read_fixture("after", all_sources()));
    CHECK(d.at("rdma rxe0/1")->at("completer_retry_err") == 12);
    CHECK(d.at("rdma rxe0/1")->at("duplicate_request") == 3);
    CHECK(d.at("rdma rxe0/1")->at("send_err") == 0);
    CHECK(d.at("rdma mlx5_0/1")->at("port_xmit_data") == 4000);
    CHECK(d.at("rdma mlx5_0/1")->at("np_cnp_sent") == 4);
    CHECK(d.at("net enp0s3")->at("rx_bytes") == 50000);
    CHECK(d.at("net enp0s3")->at("rx_dropped") == 2);
    CHECK(d.at("tcp")->at("RetransSegs") == 7);
    CHECK(d.at("tcp")->at("TCPLostRetransmit") == 2);
    CHECK(d.at("tcp")->at("TCPTimeouts") == 3);
    CHECK(d.at("tcp")->at("InSegs") == 1000);
    CHECK(d.count("rdma rxe9/1"));
    CHECK_FALSE(d.at("rdma rxe9/1"));
    CHECK_FALSE(d.at("net nosuch0"));
    // A source read after but not before is absent, not its whole value.
    CounterSnapshot before, after;
    after["net x"] = std::map<std::string, uint64_t>{{"rx_bytes", 5}};
    before["net x"] = std::nullopt;
    CHECK_FALSE(counter_deltas(before, after).at("net x"));
    // Counters wrap: the difference is taken modulo 2^64.
    before["net x"] = std::map<std::string, uint64_t>{{"rx_bytes", UINT64_MAX}};
    CHECK(counter_deltas(before, after).at("net x")->at("rx_bytes") == 6);
}

TEST_CASE("counter names are classed by a fixed table, then by their words") {
    using K = CounterClass;
    CHECK(counter_class("RetransSegs") == K::Retransmits);
    CHECK(counter_class("TCPLostRetransmit") == K::Retransmits);
    CHECK(counter_class("TCPTimeouts") == K::Retransmits);
    CHECK(counter_class("TCPSlowStartRetrans") == K::Retransmits);
    CHECK(counter_class("completer_retry_err") == K::Retransmits);
    CHECK(counter_class("duplicate_request") == K::Retransmits);
    CHECK(counter_class("out_of_seq_request") == K::Retransmits);
    CHECK(counter_class("rcvd_seq_err") == K::Retransmits);
    CHECK(counter_class("local_ack_timeout_err") == K::Retransmits);
    CHECK(counter_class("TCPRetransFail") == K::Errors);
    CHECK(counter_class("retry_exceeded_err") == K::Errors);
    CHECK(counter_class("rx_dropped") == K::Errors);
    CHECK(counter_class("rx_crc_errors") == K::Errors);
    CHECK(counter_class("out_of_buffer") == K::Errors);
    CHECK(counter_class("port_xmit_discards") == K::Errors);
    CHECK(counter_class("InErrs") == K::Errors);
    CHECK(counter_class("ListenOverflows") == K::Errors);
    CHECK(counter_class("np_cnp_sent") == K::Congestion);
    CHECK(counter_class("rp_cnp_handled") == K::Congestion);
    CHECK(counter_class("np_ecn_marked_roce_packets") == K::Congestion);
    CHECK(counter_class("rcvd_rnr_err") == K::Congestion);
    CHECK(counter_class("rx_bytes") == K::Traffic);
    CHECK(counter_class("sent_pkts") == K::Traffic);
    CHECK(counter_class("port_xmit_data") == K::Traffic);
    CHECK(counter_class("InSegs") == K::Traffic);
    CHECK(counter_class("OutRsts") == K::Other);
    CHECK(counter_class("ack_deferred") == K::Other);
    CHECK(counter_class("TCPLossProbes") == K::Other);
}

namespace {

RunCounters fixture_run(bool same_machine) {
    RunCounters c;
    c.client =
        counter_deltas(read_fixture("before", all_sources()), read_fixture("after", all_sources()));
    c.server = SideCounters{{"rdma rxe0/1", std::map<std::string, int64_t>{{"duplicate_request", 5},
                                                                           {"rcvd_pkts", 9}}}};
    c.same_machine = same_machine;
    return c;
}

} // namespace

TEST_CASE("class sums add both sides, or one when both read the same counters") {
    const RunCounters two = fixture_run(false);
    // rxe 12 + 3, tcp 7 + 2 + 3, server 5.
    CHECK(counter_class_sum(two, CounterClass::Retransmits) == 32);
    CHECK(counter_class_sum(two, CounterClass::Errors) == 2);     // rx_dropped
    CHECK(counter_class_sum(two, CounterClass::Congestion) == 4); // np_cnp_sent
    CHECK(counter_class_sum(fixture_run(true), CounterClass::Retransmits) == 27);
    CHECK_FALSE(counter_class_sum(RunCounters{}, CounterClass::Retransmits));
}

TEST_CASE("the table's counter lines name the non-zero interesting counters only") {
    const auto lines = counter_lines(fixture_run(false));
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "counters: retransmits +32: client rdma rxe0/1 completer_retry_err +12, "
                      "client rdma rxe0/1 duplicate_request +3, client tcp RetransSegs +7, "
                      "client tcp TCPLostRetransmit +2, client tcp TCPTimeouts +3, "
                      "server rdma rxe0/1 duplicate_request +5");
    CHECK(lines[1] == "counters: errors +2: client net enp0s3 rx_dropped +2");
    CHECK(lines[2] == "counters: congestion +4: client rdma mlx5_0/1 np_cnp_sent +4");
    const auto one = counter_lines(fixture_run(true));
    CHECK(one[1] == "counters: errors +2: net enp0s3 rx_dropped +2");
    // A server's names are shown escaped.
    RunCounters odd;
    odd.server = SideCounters{{"net \x1b[2J", std::map<std::string, int64_t>{{"rx_dropped", 1}}}};
    CHECK(counter_lines(odd) ==
          std::vector<std::string>{"counters: errors +1: server net \\x1b[2J rx_dropped +1"});
    RunCounters quiet;
    quiet.client = SideCounters{{"tcp", std::map<std::string, int64_t>{{"InSegs", 10}}}};
    CHECK(counter_lines(quiet).empty());
}

TEST_CASE("counters go into JSON whole, zeros and absent sources too, and back") {
    const RunCounters c = fixture_run(true);
    const auto j = run_counters_json(c);
    CHECK(j.at("client").at("rdma rxe0/1").at("send_err") == 0);
    CHECK(j.at("client").at("rdma rxe9/1").is_null());
    CHECK(j.at("server").at("rdma rxe0/1").at("duplicate_request") == 5);
    CHECK(j.at("same_machine") == true);
    const RunCounters back = run_counters_from_json(j);
    CHECK(back.client == c.client);
    CHECK(back.server == c.server);
    CHECK(back.same_machine);
    // The server's side on the wire, with the machine it read.
    const WireCounters w = wire_counters_from_text(wire_counters_text(*c.server, "boot net:[1]"));
    CHECK(w.machine == "boot net:[1]");
    CHECK(w.sources == c.server);
    CHECK_FALSE(wire_counters_from_text("not json").sources);
}

namespace {

ExpectEntry number_entry(const std::string &key, double v) {
    ExpectEntry e;
    e.key = key;
    e.key_at = "s.toml:1:" + key;
    e.value_at = "s.toml:1:v";
    e.kind = "a number";
    e.number = v;
    return e;
}

ExpectEntry table_entry(const std::string &key, std::vector<ExpectEntry> items) {
    ExpectEntry e;
    e.key = key;
    e.key_at = "s.toml:2:1";
    e.value_at = "s.toml:2:15";
    e.kind = "a table";
    e.is_table = true;
    e.table = std::move(items);
    return e;
}

Report counter_report(const RunCounters &c, const std::string &key, double max) {
    Report rep;
    RunResult r;
    r.name = "verbs";
    r.test = "verbs-bw";
    r.counters = c;
    r.expect.metrics.emplace_back(key, MetricBounds{std::nullopt, max, std::nullopt, std::nullopt});
    rep.runs.push_back(r);
    return rep;
}

} // namespace

TEST_CASE("expect retransmits and counter_errors judge the class sums of the run") {
    const auto read = read_expectations(
        table_entry("expect", {table_entry("retransmits", {number_entry("max", 0)}),
                               table_entry("counter_errors", {number_entry("max", 2)})}));
    REQUIRE(read);
    REQUIRE(read->expect.metrics.size() == 2);

    auto v = evaluate_expectations(counter_report(fixture_run(false), "retransmits", 0));
    REQUIRE(v.size() == 1);
    CHECK(v[0].outcome == Outcome::Fail);
    CHECK(verdict_text(v[0]) == "verbs: retransmits 32, expected <= 0");
    v = evaluate_expectations(counter_report(fixture_run(false), "counter_errors", 2));
    REQUIRE(v.size() == 1);
    CHECK(v[0].outcome == Outcome::Pass);
    v = evaluate_expectations(counter_report(RunCounters{}, "retransmits", 0));
    REQUIRE(v.size() == 1);
    CHECK(v[0].outcome == Outcome::Unknown);
    CHECK(v[0].reason == "no counters recorded for this run");
}

TEST_CASE("a counter expectation refuses ratios and non-numbers, saying where") {
    auto r = read_expectations(
        table_entry("expect", {table_entry("retransmits", {number_entry("max_ratio", 1)})}));
    REQUIRE_FALSE(r);
    CHECK(r.error() == "s.toml:1:max_ratio: 'expect.retransmits' takes min and max only: a "
                       "count of counters has no ratio to the baseline");
    r = read_expectations(table_entry("expect", {number_entry("counter_errors", 0)}));
    REQUIRE_FALSE(r);
    CHECK(r.error().rfind("s.toml:1:v: 'expect.counter_errors' expects a table of bounds", 0) == 0);
}
