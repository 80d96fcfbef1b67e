// CPU lists, the `cpus` and `numa` run keys, their checks against a
// machine's topology, their wire form, and placing this process for real.
#include "cmdbench/host/machine/cpu_list.hpp"
#include "cmdbench/host/scenario/placement.hpp"
#include "cmdbench/host/scenario/scenario.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sched.h>

using namespace cmdbench;

namespace {

std::set<unsigned> cpus(const std::string &text) {
    auto parsed = parse_cpu_list(text);
    REQUIRE(parsed.has_value());
    return *parsed;
}

std::string cpu_error(const std::string &text) {
    auto parsed = parse_cpu_list(text);
    return parsed ? "<no error>" : parsed.error();
}

const cmdbench_param kNoParams[1] = {};
const cmdbench_test kTest = {sizeof(cmdbench_test), "t", "a test", 0, 0, kNoParams, nullptr};
const cmdbench_test *const kTests[] = {&kTest};
const cmdbench_plugin kPlugin = {sizeof(cmdbench_plugin),
                                 CMDBENCH_ABI_MAJOR,
                                 CMDBENCH_ABI_MINOR,
                                 "p",
                                 "1.0",
                                 "plugin",
                                 0,
                                 nullptr,
                                 1,
                                 kTests};

const Registry &registry() {
    static const Registry r = [] {
        Registry reg;
        reg.add({"/plugins/p.so", &kPlugin, nullptr});
        return reg;
    }();
    return r;
}

Scenario parse(const std::string &text, const std::vector<std::string> &set = {}) {
    return parse_scenario(text, "s.toml", registry(), set);
}

std::string scenario_error(const std::string &text, bool local_server = true) {
    try {
        check_placement_here(parse(text), local_server);
    } catch (const ScenarioError &e) {
        return e.what();
    }
    return "<no error>";
}

Topology two_nodes() {
    Topology t;
    t.online = {0, 1, 2, 3};
    t.allowed = {0, 1, 2, 3};
    t.nodes = {{0, {0, 1}}, {1, {2, 3}}};
    return t;
}

} // namespace

TEST_CASE("CPU lists parse as Linux writes them and back") {
    CHECK(cpus("0-3,8") == std::set<unsigned>{0, 1, 2, 3, 8});
    CHECK(cpus(" 1 ") == std::set<unsigned>{1});
    CHECK(cpus("2, 0-1") == std::set<unsigned>{0, 1, 2});
    CHECK(cpus("5-5") == std::set<unsigned>{5});
    CHECK(cpus("1023") == std::set<unsigned>{1023});
    CHECK(cpu_list_text(cpus("8,0-3,9,11")) == "0-3,8-9,11");
    CHECK(cpu_list_text({}) == "");
}

TEST_CASE("CPU lists refuse what is not one, saying which item") {
    CHECK(cpu_error("") == "the list is empty");
    CHECK(cpu_error("1,,2") == "an item of the list is empty");
    CHECK(cpu_error("1,") == "an item of the list is empty");
    CHECK(cpu_error("3-1") == "'3-1' runs backwards");
    CHECK(cpu_error("a") == "'a' is not a CPU number or range (like 3 or 0-3)");
    CHECK(cpu_error("-1") == "'-1' is not a CPU number or range (like 3 or 0-3)");
    CHECK(cpu_error("1-") == "'1-' is not a CPU number or range (like 3 or 0-3)");
    CHECK(cpu_error("1024") == "'1024' goes above 1023");
    CHECK(cpu_error("0-99999999999999999999") == "'0-99999999999999999999' goes above 1023");
}

TEST_CASE("cpus and numa apply to both sides, or per side, and round-trip") {
    Scenario s = parse("[defaults]\ncpus = \"0-1\"\n[[run]]\ntest = \"t\"\n"
                       "[[run]]\ntest = \"t\"\ncpus = { server = 3 }\nnuma = { client = "
                       "\"device\", server = 1 }\n");
    REQUIRE(s.runs.size() == 2);
    CHECK(s.runs[0].placement.client.cpus_text() == "0-1");
    CHECK(s.runs[0].placement.server.cpus_text() == "0-1");
    CHECK(s.runs[0].placement.client.numa == SidePlacement::Numa::Any);
    CHECK(s.runs[1].placement.client.cpus.empty());
    CHECK(s.runs[1].placement.server.cpus_text() == "3");
    CHECK(s.runs[1].placement.client.numa == SidePlacement::Numa::Device);
    CHECK(s.runs[1].placement.server.numa_text() == "1");
    const std::string toml = to_toml(s);
    CHECK(toml.find("cpus = \"0-1\"\n") != std::string::npos);
    CHECK(toml.find("cpus = { server = \"3\" }\n") != std::string::npos);
    CHECK(toml.find("numa = { client = \"device\", server = 1 }\n") != std::string::npos);
    Scenario again = parse(toml);
    CHECK(again.runs[1].placement.server == s.runs[1].placement.server);
    CHECK(again.runs[1].placement.client == s.runs[1].placement.client);
    // --set takes a bare list, a number or a table.
    CHECK(parse("[[run]]\ntest = \"t\"\n", {"cpus=0-1,3"}).runs[0].placement.server.cpus_text() ==
          "0-1,3");
    CHECK(parse("[[run]]\ntest = \"t\"\n", {"numa=device"}).runs[0].placement.client.numa ==
          SidePlacement::Numa::Device);
    CHECK(parse("[[run]]\ntest = \"t\"\n", {"numa={server=0}"}).runs[0].placement.server.numa ==
          SidePlacement::Numa::Node);
    // One key for both sides leaves the other key's sides alone.
    const Scenario mixed = parse("[[run]]\ntest = \"t\"\nnuma = 0\ncpus = { server = \"1\" }\n");
    CHECK(mixed.runs[0].placement.server.cpus_text() == "1");
    CHECK(mixed.runs[0].placement.server.numa_text() == "0");
    CHECK(mixed.runs[0].placement.client.cpus.empty());
    CHECK(mixed.runs[0].placement.client.numa_text() == "0");
}

TEST_CASE("a CPU or node this machine lacks is an error at the key") {
    const Topology t = two_nodes();
    SidePlacement p;
    p.cpus = {7};
    CHECK(check_placement(p, t).error() ==
          "'cpus' names CPU 7, which this machine does not have (CPUs: 0-3)");
    Topology narrow = t;
    narrow.allowed = {0, 1};
    p.cpus = {2};
    CHECK(check_placement(p, narrow).error() ==
          "'cpus' names CPU 2, which this process's cpuset does not allow (cpuset: 0-1)");
    p.cpus = {};
    p.numa = SidePlacement::Numa::Node;
    p.node = 2;
    CHECK(check_placement(p, t, "the server's machine").error() ==
          "'numa' names node 2, which the server's machine does not have (nodes: 0-1)");
    p.node = 1;
    CHECK(check_placement(p, t).ok());
    // numa alone pins the threads to the node's CPUs; cpus wins when given.
    CHECK(placement_cpus(p, 1, t) == std::set<unsigned>{2, 3});
    p.cpus = {0};
    CHECK(placement_cpus(p, 1, t) == std::set<unsigned>{0});

    // On this machine: CPU 1023 is nobody's; the server side of a run with a
    // named server is that server's to check.
    const std::string run = "[[run]]\ntest = \"t\"\ncpus = { client = \"0\", server = \"1023\" }\n";
    CHECK(scenario_error(run) == "s.toml:3:8: 'cpus' names CPU 1023, which this machine does not "
                                 "have (CPUs: " +
                                     cpu_list_text(local_topology().online) +
                                     ") (the server side of run 't')");
    CHECK(scenario_error(run, false) == "<no error>");
    CHECK(scenario_error("[[run]]\ntest = \"t\"\nnuma = 1023\n")
              .rfind("s.toml:3:8: 'numa' names node 1023, which this machine does not have", 0) ==
          0);
}

TEST_CASE("placements travel as text and are checked when read") {
    SidePlacement p;
    p.cpus = {0, 1, 5};
    p.numa = SidePlacement::Numa::Device;
    CHECK(placement_wire(p) == "cpus=0-1,5;numa=device");
    auto back = placement_from_wire(placement_wire(p));
    REQUIRE(back.has_value());
    CHECK(*back == p);
    auto node = placement_from_wire("numa=3");
    REQUIRE(node.has_value());
    CHECK(node->node == 3);
    for (const char *bad : {"", "cpus=", "cpus=1;cpus=2", "numa=-1", "numa=x", "numa=1,2", "mem=1",
                            "cpus=1;", "numa=1 "})
        CHECK_FALSE(placement_from_wire(bad).has_value());
}

TEST_CASE("a placement pins every thread of the process and is undone after") {
    const Topology t = local_topology();
    const unsigned last = *t.allowed.rbegin(); // our cpuset's, maybe not our mask's
    cpu_set_t before;
    REQUIRE(sched_getaffinity(0, sizeof before, &before) == 0);
    {
        PlacementScope scope;
        SidePlacement p;
        p.cpus = {last};
        p.numa = SidePlacement::Numa::Node;
        p.node = t.nodes.begin()->first;
        REQUIRE(scope.apply(p, int(p.node)).ok());
        cpu_set_t now;
        REQUIRE(sched_getaffinity(0, sizeof now, &now) == 0);
        CHECK(CPU_COUNT(&now) == 1);
        CHECK(CPU_ISSET(last, &now));
        SideAffinity seen;
        note_thread_placement(seen);
        CHECK(seen.cpus_allowed == std::to_string(last));
        CHECK(seen.memory_policy == "bind");
        CHECK(seen.memory_nodes == std::to_string(p.node));
        CHECK(seen.memory_node_seen == std::to_string(p.node));
        std::ifstream status("/proc/self/status");
        std::string line, allowed;
        while (std::getline(status, line))
            if (line.rfind("Cpus_allowed_list:", 0) == 0) allowed = line;
        CHECK(allowed == "Cpus_allowed_list:\t" + std::to_string(last));
    }
    cpu_set_t after;
    REQUIRE(sched_getaffinity(0, sizeof after, &after) == 0);
    CHECK(CPU_EQUAL(&before, &after));
    SideAffinity seen;
    note_thread_placement(seen);
    CHECK(seen.memory_policy == "default");
}

TEST_CASE("numa = device takes the device's node, else the interface's, else says why") {
    SidePath path;
    path.rdma = true;
    RdmaDevice dev;
    dev.name = "rxe0";
    dev.netdev = "dummy0";
    dev.numa_node = "unknown";
    path.devices.push_back(dev);
    path.interface.name = "dummy0";
    path.interface.numa_node = "unknown";
    auto none = device_numa_node(path);
    REQUIRE_FALSE(none.has_value());
    CHECK(none.error() ==
          "numa = \"device\": the system gives no NUMA node for rxe0 (on dummy0), interface "
          "dummy0 (name the node instead, e.g. numa = 0)");
    path.interface.numa_node = "1";
    CHECK(device_numa_node(path).value() == 1);
    path.devices[0].numa_node = "0";
    CHECK(device_numa_node(path).value() == 0);
}
