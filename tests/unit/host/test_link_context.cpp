// The data path from sysfs (link_context), on fake sysfs trees laid out as
// the kernel lays out a ConnectX port (mlx5), Soft-RoCE (rxe) and soft
// iWARP (siw); and how the reports show it (path_context).
#include "cmdbench/host/machine/link_context.hpp"
#include "cmdbench/report/compare/comparison.hpp"
#include "cmdbench/report/compare/comparison_json.hpp"
#include "cmdbench/report/path_context.hpp"
#include "cmdbench/report/report.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

using namespace cmdbench;
namespace fs = std::filesystem;

namespace {

// A sysfs tree in a fresh temporary directory, removed afterwards.
struct FakeSysfs {
    fs::path root;
    FakeSysfs() {
        root = fs::temp_directory_path() /
               ("cmdbench-sysfs-" + std::to_string(getpid()) + "-" + std::to_string(counter()++));
        fs::remove_all(root);
        fs::create_directories(root);
    }
    ~FakeSysfs() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    static int &counter() {
        static int n = 0;
        return n;
    }
    void file(const std::string &rel, const std::string &text) {
        const fs::path p = root / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p) << text << '\n';
    }
    void link(const std::string &rel, const std::string &target) {
        const fs::path p = root / rel;
        fs::create_directories(p.parent_path());
        fs::create_symlink(target, p);
    }
    void dir(const std::string &rel) { fs::create_directories(root / rel); }
    std::string str() const { return root.string(); }

    // A PCI function with its driver and NUMA node, as /sys/devices has it.
    void pci_device(const std::string &bdf, const std::string &driver, const std::string &numa) {
        const std::string d = "devices/pci0000:00/" + bdf;
        file(d + "/numa_node", numa);
        link(d + "/driver", "../../../bus/pci/drivers/" + driver);
        link(d + "/subsystem", "../../../bus/pci");
    }
    void gid(const std::string &dev, int port, int idx, const std::string &gid,
             const std::string &type, const std::string &ndev) {
        const std::string p = "class/infiniband/" + dev + "/ports/" + std::to_string(port);
        file(p + "/gids/" + std::to_string(idx), gid);
        file(p + "/gid_attrs/types/" + std::to_string(idx), type);
        file(p + "/gid_attrs/ndevs/" + std::to_string(idx), ndev);
    }
    void port(const std::string &dev, int port, const std::string &rate) {
        const std::string p = "class/infiniband/" + dev + "/ports/" + std::to_string(port);
        file(p + "/state", "4: ACTIVE");
        file(p + "/phys_state", "5: LinkUp");
        file(p + "/link_layer", "Ethernet");
        file(p + "/rate", rate);
    }
};

constexpr const char *kZeroGid = "0000:0000:0000:0000:0000:0000:0000:0000";

// A ConnectX-6 port on eth2 (10.0.0.5), its GID table with the address as
// RoCE v1 (index 2) and v2 (index 3).
void mlx5_tree(FakeSysfs &t) {
    t.pci_device("0000:03:00.0", "mlx5_core", "1");
    t.link("class/net/eth2/device", "../../../devices/pci0000:00/0000:03:00.0");
    t.file("class/net/eth2/mtu", "4200");
    t.file("class/net/eth2/speed", "100000");
    t.link("class/infiniband/mlx5_0/device", "../../../devices/pci0000:00/0000:03:00.0");
    t.file("class/infiniband/mlx5_0/fw_ver", "20.31.1014");
    t.file("class/infiniband/mlx5_0/node_guid", "b8ce:f603:00a1:b2c4");
    t.file("class/infiniband/mlx5_0/node_type", "1: CA");
    t.port("mlx5_0", 1, "100 Gb/sec (4X EDR)");
    t.gid("mlx5_0", 1, 0, "fe80:0000:0000:0000:bace:f6ff:fea1:b2c4", "IB/RoCE v1", "eth2");
    t.gid("mlx5_0", 1, 1, "fe80:0000:0000:0000:bace:f6ff:fea1:b2c4", "RoCE v2", "eth2");
    t.gid("mlx5_0", 1, 2, "0000:0000:0000:0000:0000:ffff:0a00:0005", "IB/RoCE v1", "eth2");
    t.gid("mlx5_0", 1, 3, "0000:0000:0000:0000:0000:ffff:0a00:0005", "RoCE v2", "eth2");
    t.gid("mlx5_0", 1, 4, kZeroGid, "", "");
}

// Soft-RoCE on dummy0 (192.0.2.1) as the lab has it: a virtual device (no
// `device` link), `parent` naming its interface, an empty fw_ver, and an
// interface that refuses `speed`.
void rxe_tree(FakeSysfs &t) {
    t.dir("devices/virtual/net/dummy0");
    t.file("class/net/dummy0/mtu", "9000");
    t.file("class/infiniband/rxe0/fw_ver", "");
    t.file("class/infiniband/rxe0/node_guid", "8cc1:bfff:fe09:376f");
    t.file("class/infiniband/rxe0/node_type", "1: CA");
    t.file("class/infiniband/rxe0/parent", "dummy0");
    t.port("rxe0", 1, "2.5 Gb/sec (1X SDR)");
    t.gid("rxe0", 1, 0, "fe80:0000:0000:0000:8cc1:bfff:fe09:376f", "RoCE v2", "dummy0");
    t.gid("rxe0", 1, 1, "0000:0000:0000:0000:0000:ffff:c000:0201", "RoCE v2", "dummy0");
}

} // namespace

TEST_CASE("link context: a TCP run records its interface's driver, speed, MTU, NUMA node, PCI") {
    FakeSysfs t;
    mlx5_tree(t);
    const SidePath s = describe_path(t.str(), "10.0.0.5", "eth2", false);
    CHECK(s.address == "10.0.0.5");
    CHECK(s.interface.name == "eth2");
    CHECK(s.interface.driver == "mlx5_core");
    CHECK(s.interface.speed == "100000 Mb/s");
    CHECK(s.interface.mtu == "4200");
    CHECK(s.interface.numa_node == "1");
    CHECK(s.interface.pci_address == "0000:03:00.0");
    CHECK_FALSE(s.rdma);
    CHECK(s.devices.empty()); // a TCP run names no RDMA device, even on a RoCE port
    CHECK_FALSE(s.software_rdma());
}

TEST_CASE("link context: a virtio NIC takes the NUMA node and PCI address of its PCI function") {
    FakeSysfs t;
    t.pci_device("0000:81:00.0", "virtio-pci", "1");
    t.link("devices/pci0000:00/0000:81:00.0/virtio5/subsystem", "../../../../bus/virtio");
    t.link("devices/pci0000:00/0000:81:00.0/virtio5/driver",
           "../../../../bus/virtio/drivers/virtio_net");
    t.link("class/net/lab0/device", "../../../devices/pci0000:00/0000:81:00.0/virtio5");
    t.file("class/net/lab0/mtu", "9000");
    const SidePath s = describe_path(t.str(), "192.0.2.1", "lab0", false);
    CHECK(s.interface.driver == "virtio_net");
    CHECK(s.interface.numa_node == "1");
    CHECK(s.interface.pci_address == "0000:81:00.0");
}

TEST_CASE("link context: an RDMA run finds the device, port and RoCE v2 GID of its address") {
    FakeSysfs t;
    mlx5_tree(t);
    const SidePath s =
        describe_path(t.str(), "10.0.0.5", "eth2", true, [](const std::string &dev, unsigned port) {
            return "asked " + dev + " port " + std::to_string(port);
        });
    REQUIRE(s.devices.size() == 1);
    const RdmaDevice &d = s.devices[0];
    CHECK(d.name == "mlx5_0");
    CHECK(d.port == 1);
    CHECK(s.gid_index == 3);
    CHECK(s.gid_type == "RoCE v2");
    CHECK(d.driver == "mlx5_core");
    CHECK(d.firmware == "20.31.1014");
    CHECK(d.node_guid == "b8ce:f603:00a1:b2c4");
    CHECK(d.port_state == "ACTIVE");
    CHECK(d.link_layer == "Ethernet");
    CHECK(d.rate == "100 Gb/sec (4X EDR)");
    CHECK(d.netdev == "eth2");
    CHECK(d.numa_node == "1");
    CHECK(d.pci_address == "0000:03:00.0");
    CHECK(d.active_mtu == "asked mlx5_0 port 1"); // sysfs does not say: libibverbs
    CHECK(describe_path(t.str(), "10.0.0.5", "eth2", true).devices.at(0).active_mtu == "unknown");
    CHECK_FALSE(d.software());
}

TEST_CASE("link context: Soft-RoCE is driver rxe, software RDMA, on its netdev") {
    FakeSysfs t;
    rxe_tree(t);
    const SidePath s = describe_path(t.str(), "192.0.2.1", "dummy0", true);
    REQUIRE(s.devices.size() == 1);
    const RdmaDevice &d = s.devices[0];
    CHECK(d.name == "rxe0");
    CHECK(d.driver == "rxe");
    CHECK(d.software());
    CHECK(s.software_rdma());
    CHECK(s.gid_index == 1);
    CHECK(s.gid_type == "RoCE v2");
    CHECK(d.netdev == "dummy0");
    CHECK(d.firmware == "unknown");
    CHECK(d.pci_address == "unknown");
    CHECK(d.numa_node == "unknown");
    CHECK(s.interface.speed == "unknown");
    CHECK(s.interface.driver == "unknown");
    CHECK(s.interface.mtu == "9000");
}

TEST_CASE("link context: soft iWARP (an RNIC with a parent) is driver siw") {
    FakeSysfs t;
    t.file("class/infiniband/siw0/node_type", "4: RNIC");
    t.file("class/infiniband/siw0/parent", "eth0");
    t.port("siw0", 1, "10 Gb/sec (4X SDR)");
    t.gid("siw0", 1, 0, "0000:0000:0000:0000:0000:ffff:0a00:0009", "", "");
    const SidePath s = describe_path(t.str(), "10.0.0.9", "", true);
    REQUIRE(s.devices.size() == 1);
    CHECK(s.devices[0].driver == "siw");
    CHECK(s.devices[0].netdev == "eth0"); // no ndev for the GID: `parent` says
    CHECK(s.software_rdma());
}

TEST_CASE("link context: an RDMA run on loopback uses the device with an IP address") {
    FakeSysfs t;
    rxe_tree(t);
    t.file("class/net/lo/mtu", "65536");
    // As the RDMA plugins do when asked to meet on 127.0.0.1: rxe has no
    // loopback, so they bind the device's interface address.
    const SidePath s = describe_path(t.str(), "127.0.0.1", "lo", true);
    REQUIRE(s.devices.size() == 1);
    CHECK(s.devices[0].name == "rxe0");
    CHECK(s.address == "192.0.2.1");
    CHECK(s.interface.name == "dummy0");
}

namespace {

// A GID table as libibverbs gives it: the valid entries only, in any order.
std::optional<std::vector<GidEntry>> rxe_table(const std::string &device) {
    if (device != "rxe0") return std::nullopt;
    GidEntry v1{1, 2, {}, "IB/RoCE v1", "dummy0"};
    v1.gid = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 51, 100, 7};
    GidEntry v2 = v1;
    v2.index = 3;
    v2.type = "RoCE v2";
    return std::vector<GidEntry>{v2, v1};
}

} // namespace

TEST_CASE("link context: a device's GID table comes from the table query, when it answers") {
    FakeSysfs t;
    rxe_tree(t); // sysfs has 192.0.2.1 at index 1; the table has 198.51.100.7
    t.file("class/net/lo/mtu", "65536");
    const SidePath s = describe_path(t.str(), "198.51.100.7", "dummy0", true, nullptr, rxe_table);
    REQUIRE(s.devices.size() == 1);
    CHECK(s.devices[0].name == "rxe0");
    CHECK(s.gid_index == 3); // RoCE v2 before v1
    CHECK(s.gid_type == "RoCE v2");
    CHECK(s.devices[0].netdev == "dummy0");
    // The table is the whole truth: sysfs's entry is not looked at.
    CHECK(describe_path(t.str(), "192.0.2.1", "dummy0", true, nullptr, rxe_table).devices.empty());
    const SidePath lo = describe_path(t.str(), "127.0.0.1", "lo", true, nullptr, rxe_table);
    CHECK(lo.address == "198.51.100.7");
    CHECK(lo.gid_index == 3);
    // A device the query does not answer for is read from sysfs.
    FakeSysfs u;
    mlx5_tree(u);
    const SidePath m = describe_path(u.str(), "10.0.0.5", "eth2", true, nullptr, rxe_table);
    REQUIRE(m.devices.size() == 1);
    CHECK(m.gid_index == 3);
}

TEST_CASE("link context: what the system does not say is unknown") {
    FakeSysfs t;
    const SidePath s = describe_path(t.str(), "10.1.1.1", "", true);
    CHECK(s.interface.name == "unknown");
    CHECK(s.interface.mtu == "unknown");
    CHECK(s.rdma);
    CHECK(s.devices.empty());
    CHECK(side_path_text(s) ==
          "no RDMA device has 10.1.1.1; unknown (driver unknown, speed unknown, mtu unknown)");
}

TEST_CASE("link context: this machine's loopback address is on lo") {
    CHECK(interface_with_address("127.0.0.1") == "lo");
    CHECK(interface_with_address("not an address").empty());
}

TEST_CASE("path context: JSON round trip, peer text escaped, software RDMA flagged") {
    FakeSysfs t;
    rxe_tree(t);
    RunPath p;
    p.client = describe_path(t.str(), "192.0.2.1", "dummy0", true);
    p.server = p.client;
    p.server->interface.name = "dummy0\x1b[2J";
    const auto j = run_path_json(p);
    CHECK(j.at("software_rdma") == true);
    CHECK(j.at("client").at("rdma").at("device") == "rxe0");
    CHECK(j.at("client").at("rdma").at("port") == 1);
    CHECK(j.at("client").at("rdma").at("gid_index") == 1);
    CHECK(j.at("client").at("rdma").at("gid_type") == "RoCE v2");
    CHECK(j.at("client").at("devices").at(0).at("driver") == "rxe");
    CHECK(j.at("client").at("devices").at(0).at("software") == true);
    const RunPath back = run_path_from_json(j);
    REQUIRE(back.client);
    REQUIRE(back.server);
    CHECK(side_path_text(*back.client) == side_path_text(*p.client));
    CHECK(back.server->interface.name == "dummy0\\x1b[2J");
    CHECK(back.software_rdma());
    CHECK(run_path_from_json(nlohmann::ordered_json::parse(R"({"client": null})")).known() ==
          false);
}

TEST_CASE("path context: the table names both sides' paths and warns of software RDMA") {
    FakeSysfs t;
    rxe_tree(t);
    RunResult r;
    r.name = "latency/verbs";
    r.test = "verbs-lat";
    r.path.client = describe_path(t.str(), "192.0.2.1", "dummy0", true);
    std::ostringstream out;
    write_table_run(out, r);
    const std::string text = out.str();
    CHECK(text.find("path: client rxe0 port 1 GID 1 RoCE v2 (driver rxe, software RDMA, "
                    "Ethernet, ACTIVE, rate 2.5 Gb/sec (1X SDR), active mtu unknown, fw unknown) "
                    "on dummy0 (driver unknown, speed unknown, mtu 9000)\n") != std::string::npos);
    CHECK(text.find("path: server unknown (the server did not say)\n") != std::string::npos);
    CHECK(text.find("! software RDMA (rxe): these figures measure Soft-RoCE's software path in "
                    "the kernel, not RDMA hardware\n") != std::string::npos);

    RunResult tcp;
    tcp.name = "latency/tcp";
    tcp.path.client = describe_path(t.str(), "192.0.2.1", "dummy0", false);
    tcp.path.server = tcp.path.client;
    std::ostringstream tcp_out;
    write_table_run(tcp_out, tcp);
    CHECK(tcp_out.str() == "== latency/tcp: test=\n"
                           "path: client and server dummy0 (driver unknown, speed unknown, mtu "
                           "9000)\n");
}

TEST_CASE("path context: JSON results carry runs[].path, the comparison, its table, JSON and "
          "HTML say software RDMA") {
    FakeSysfs t;
    rxe_tree(t);
    Report rep;
    RunResult r;
    r.name = "latency/verbs";
    r.test = "verbs-lat";
    r.group = "latency";
    r.variant = "verbs";
    r.path.client = describe_path(t.str(), "192.0.2.1", "dummy0", true);
    rep.runs.push_back(r);
    RunResult plain = r;
    plain.name = "latency/tcp";
    plain.variant = "tcp";
    plain.path = {};
    rep.runs.push_back(plain);
    std::ostringstream json;
    write_json(json, rep);
    const auto doc = nlohmann::json::parse(json.str());
    CHECK(doc["runs"][0]["path"]["software_rdma"] == true);
    CHECK(doc["runs"][0]["path"]["server"].is_null());
    CHECK(doc["runs"][1]["path"].is_null());

    const Comparison c = build_comparison({&rep}, {});
    CHECK(c.software_rdma == "software RDMA (rxe): these figures measure Soft-RoCE's software "
                             "path in the kernel, not RDMA hardware");
    std::ostringstream table, cjson, html;
    write_comparison_table(table, c);
    CHECK(table.str().find("\n! software RDMA (rxe): ") != std::string::npos);
    write_comparison_json(cjson, c);
    CHECK(nlohmann::json::parse(cjson.str())["software_rdma"] == c.software_rdma);
    write_html_report(html, c, {&rep});
    CHECK(html.str().find("<p class=\"banner\" id=\"software-rdma\">Software RDMA (rxe): these "
                          "figures measure Soft-RoCE&#39;s software path in the kernel, not RDMA "
                          "hardware.</p>") != std::string::npos);
    CHECK(html.str().find("<caption>Data path</caption>") != std::string::npos);

    Report tcp_only;
    tcp_only.runs.push_back(plain);
    const Comparison none = build_comparison({&tcp_only}, {});
    CHECK(none.software_rdma.empty());
    std::ostringstream quiet;
    write_html_report(quiet, none, {&tcp_only});
    CHECK(quiet.str().find("id=\"software-rdma\"") == std::string::npos);
}

TEST_CASE("path context: where each side ran round-trips in JSON and shows in table and HTML "
          "when a side was placed") {
    RunResult r;
    r.name = "placed";
    r.test = "pingpong";
    r.group = "pingpong";
    r.variant = "tcp";
    r.path.client = SidePath{};
    r.path.server = SidePath{};
    SideAffinity client;
    client.requested_cpus = "1";
    client.requested_numa = "device";
    client.numa_node = "0";
    client.cpus_allowed = "1";
    client.cpus_seen = "1";
    client.memory_policy = "bind";
    client.memory_nodes = "0";
    client.memory_node_seen = "0";
    SideAffinity server; // not placed: shown because the client was
    server.cpus_allowed = "0-3";
    server.cpus_seen = "2-3";
    server.memory_policy = "default";
    server.memory_nodes = "";
    server.memory_node_seen = "0";
    r.path.client->affinity = client;
    r.path.server->affinity = server;

    const RunPath back = run_path_from_json(run_path_json(r.path));
    REQUIRE(back.client->affinity);
    CHECK(side_affinity_text(*back.client->affinity) == side_affinity_text(client));
    CHECK(side_affinity_text(*back.server->affinity) == side_affinity_text(server));
    CHECK_FALSE(back.server->affinity->asked());
    // A side from a peer older than the key has none.
    CHECK_FALSE(
        run_path_from_json(nlohmann::ordered_json::parse(R"({"client": {}})")).client->affinity);

    std::ostringstream out;
    write_table_run(out, r);
    CHECK(out.str().find("affinity: client cpus 1 (asked 1), seen 1; memory bind 0 (asked numa "
                         "device: node 0), seen node 0\n"
                         "affinity: server cpus 0-3, seen 2-3; memory default, seen node 0\n") !=
          std::string::npos);

    Report rep;
    rep.runs.push_back(r);
    std::ostringstream html;
    write_html_report(html, build_comparison({&rep}, {}), {&rep});
    CHECK(html.str().find("<br>affinity: cpus 1 (asked 1), seen 1; memory bind 0 (asked numa "
                          "device: node 0), seen node 0</td>") != std::string::npos);
    CHECK(html.str().find("<br>affinity: cpus 0-3, seen 2-3; memory default, seen node 0</td>") !=
          std::string::npos);

    // No side placed: nothing about affinity in the table.
    r.path.client->affinity->requested_cpus.clear();
    r.path.client->affinity->requested_numa.clear();
    std::ostringstream quiet;
    write_table_run(quiet, r);
    CHECK(quiet.str().find("affinity:") == std::string::npos);
}
