// Rails under a launcher: which rails a rank tells the others about, what
// a rail's run sends a remote server, and where a pair meets on a rail.
#include "cmdbench/host/matrix/matrix_rails.hpp"
#include "cmdbench/host/plan/job_plan.hpp"
#include "cmdbench/host/run/run_client.hpp"

#include <catch2/catch.hpp>

using namespace cmdbench;

namespace {

// A run with rails = "all" as this machine read it: its devices' addresses
// in bind_address.
RunSpec all_rails_run(const std::vector<RailAddress> &devices) {
    RunSpec spec;
    spec.name = "bw";
    spec.variant = "verbs-bw";
    spec.test = "verbs-bw";
    spec.rails_all = true;
    for (const RailAddress &d : devices) {
        Rail rail;
        rail.label = d.label;
        rail.test_params["bind_address"] = d.address;
        rail.client_only.insert("bind_address");
        spec.rails.push_back(rail);
    }
    return spec;
}

} // namespace

TEST_CASE("matrix rails: a rank publishes its rails = \"all\" devices and addresses") {
    Scenario s;
    RunSpec plain;
    plain.name = "lat";
    s.runs = {plain, all_rails_run({{"rxe0", "10.77.0.1"}, {"rxe1", "10.77.1.1"}})};
    const auto rails = rails_of(s);
    REQUIRE(rails.size() == 2);
    CHECK(rails[1].label == "rxe1");
    CHECK(rails[1].address == "10.77.1.1");
    CHECK(rails_text(rails) == "2 rails (rxe0 10.77.0.1, rxe1 10.77.1.1)");
    CHECK(rails_text({}) == "no rail");
    // A listed rail (not "all") names one machine's addresses: not published.
    s.runs[1].rails_all = false;
    CHECK(rails_of(s).empty());
}

TEST_CASE("rails = \"all\": the client's rail address is not sent to a remote server") {
    Scenario s;
    s.runs = {all_rails_run({{"rxe0", "10.77.0.1"}, {"rxe1", "10.77.1.1"}})};
    s.runs[0].test_params["sizes"] = std::vector<int64_t>{65536};
    const RunPlan plan = plan_matrix_runs(s, 2, {"rxe0", "rxe1"});
    auto has = [](const WireParams &w, const std::string &key) {
        for (const auto &kv : w)
            if (kv.first == key) return true;
        return false;
    };
    REQUIRE(plan.parts.size() == 3);
    for (const RunPart &part : plan.parts) {
        const RunSpec &spec = part.spec;
        INFO(spec.name);
        // A remote server binds where the client reached it: its own
        // address on the rail. A local one shares this machine's addresses.
        CHECK_FALSE(has(sent_params(spec, true), "bind_address"));
        CHECK(has(sent_params(spec, true), "sizes"));
        if (spec.rails.empty()) CHECK(has(sent_params(spec, false), "bind_address"));
    }
}

TEST_CASE("matrix rails: a pair meets on the server's address of the rail, same port") {
    CHECK(rail_server_address("10.77.0.2:40001", "10.77.1.2") == "10.77.1.2:40001");
    CHECK(rail_server_address("[fe80::1]:5000", "10.77.1.2") == "10.77.1.2:5000");
    CHECK(rail_server_address("node1:7000", "fd00::2") == "[fd00::2]:7000");
}
