// The cluster preflight of `cmdbench job`: every RDMA port read from a fake
// sysfs tree, and the nodes compared with what most of them have.
#include "cmdbench/host/machine/rdma_ports.hpp"
#include "cmdbench/host/matrix/preflight.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace cmdbench;
namespace fs = std::filesystem;

namespace {

struct Tree {
    fs::path root = fs::temp_directory_path() / ("cmdbench-ports-" + std::to_string(getpid()));
    Tree() { fs::remove_all(root); }
    ~Tree() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    void file(const std::string &rel, const std::string &text) {
        fs::create_directories((root / rel).parent_path());
        std::ofstream(root / rel) << text << '\n';
    }
    void port(const std::string &dev, int n, const std::string &state, const std::string &rate,
              int gids_in_use) {
        const std::string p = "class/infiniband/" + dev + "/ports/" + std::to_string(n) + "/";
        file(p + "state", state);
        file(p + "rate", rate);
        file(p + "link_layer", "Ethernet");
        for (int i = 0; i < 4; ++i)
            file(p + "gids/" + std::to_string(i),
                 i < gids_in_use ? "fe80:0000:0000:0000:5054:00ff:fec0:000" + std::to_string(i)
                                 : "0000:0000:0000:0000:0000:0000:0000:0000");
    }
};

RdmaPort port(const std::string &dev, const std::string &state = "ACTIVE",
              const std::string &rate = "400 Gb/sec (4X NDR)", const std::string &mtu = "4096") {
    RdmaPort p;
    p.device.name = dev;
    p.device.port = 1;
    p.device.port_state = state;
    p.device.rate = rate;
    p.device.active_mtu = mtu;
    p.device.link_layer = "InfiniBand";
    p.gids = 2;
    return p;
}

std::vector<NodePorts> cluster(int n) {
    std::vector<NodePorts> nodes;
    for (int i = 0; i < n; ++i)
        nodes.push_back({"node" + std::to_string(i), {port("mlx5_0"), port("mlx5_1")}});
    return nodes;
}

} // namespace

TEST_CASE("preflight: every port of every device, from sysfs") {
    Tree t;
    t.port("rxe1", 1, "4: ACTIVE", "2.5 Gb/sec (1X SDR)", 2);
    t.port("mlx5_0", 2, "1: DOWN", "10 Gb/sec (4X SDR)", 0);
    t.port("mlx5_0", 1, "4: ACTIVE", "100 Gb/sec (4X EDR)", 3);
    t.file("class/infiniband/rxe1/parent", "eth1");
    const auto ports = rdma_ports(
        t.root.string(), [](const std::string &, unsigned) { return std::string("1024"); });
    REQUIRE(ports.size() == 3);
    CHECK(ports[0].device.name == "mlx5_0");
    CHECK(ports[0].device.port == 1);
    CHECK(ports[0].device.port_state == "ACTIVE");
    CHECK(ports[0].gids == 3);
    CHECK(ports[1].device.port == 2);
    CHECK(ports[1].device.port_state == "DOWN");
    CHECK(ports[1].gids == 0);
    CHECK(ports[2].device.name == "rxe1");
    CHECK(ports[2].device.driver == "rxe");
    CHECK(ports[2].device.active_mtu == "1024");
    CHECK(rdma_ports((t.root / "nothing").string()).empty());
}

TEST_CASE("preflight: the ports travel to rank 0 and back") {
    const std::vector<RdmaPort> in = {port("mlx5_0", "DOWN", "100 Gb/sec (4X EDR)", "1024")};
    const auto out = ports_from_json(nlohmann::json::parse(ports_json(in).dump()));
    REQUIRE(out.size() == 1);
    CHECK(out[0].device.port_state == "DOWN");
    CHECK(out[0].device.rate == "100 Gb/sec (4X EDR)");
    CHECK(out[0].device.active_mtu == "1024");
    CHECK(out[0].gids == 2);
    CHECK(ports_from_json(nlohmann::json::parse("[{\"device\": 1}]")).empty());
}

TEST_CASE("preflight: nodes that agree give the majority and no finding") {
    const Preflight p = compare_nodes(cluster(4));
    CHECK(p.findings.empty());
    REQUIRE(p.majority.size() == 2);
    CHECK(p.majority[0] == "mlx5_0 port 1: state ACTIVE, rate 400 Gb/sec (4X NDR), active MTU "
                           "4096, link layer InfiniBand, GIDs 2 (4 of 4 nodes)");
    CHECK(compare_nodes({}).majority.empty());
}

TEST_CASE("preflight: a port down, a slow one, a small MTU and a missing device are named") {
    auto nodes = cluster(64);
    nodes[12].ports[1] = port("mlx5_1", "DOWN");
    nodes[31].ports[0] = port("mlx5_0", "ACTIVE", "100 Gb/sec (4X EDR)");
    nodes[40].ports[0] = port("mlx5_0", "ACTIVE", "400 Gb/sec (4X NDR)", "1024");
    nodes[50].ports.pop_back();
    nodes.push_back(nodes[3]); // a second rank on node3 counts once
    const Preflight p = compare_nodes(nodes);
    REQUIRE(p.findings.size() == 4);
    CHECK(p.findings[0] == "node31: mlx5_0 port 1 runs at 100 Gb/sec (4X EDR) where 63 of 64 "
                           "nodes have 400 Gb/sec (4X NDR)");
    CHECK(p.findings[1] == "node40: mlx5_0 port 1 has MTU 1024 where 63 of 64 nodes have 4096");
    CHECK(p.findings[2] == "node50: has no mlx5_1 port 1 (63 of 64 nodes have it)");
    CHECK(p.findings[3] == "node12: mlx5_1 port 1 is DOWN where 62 of 64 nodes have ACTIVE");
}

TEST_CASE("preflight: a port only a few nodes have is theirs to explain") {
    auto nodes = cluster(5);
    nodes[2].ports.push_back(port("rxe0"));
    const Preflight p = compare_nodes(nodes);
    REQUIRE(p.findings.size() == 1);
    CHECK(p.findings[0] == "node2: has rxe0 port 1, which 1 of 5 nodes have");
}
