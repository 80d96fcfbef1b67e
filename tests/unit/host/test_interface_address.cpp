// `[matrix] interface` and `device`: a rank's address on a named interface
// (this machine's loopback) or RDMA device (fake sysfs trees laid out as
// RoCE, IPoIB and Soft-RoCE devices show them), and the errors that say
// what the node has instead.
#include "cmdbench/host/machine/interface_address.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace cmdbench;
namespace fs = std::filesystem;

namespace {

struct FakeSys {
    fs::path root;
    FakeSys() {
        char tmpl[] = "/tmp/cmdbench-fakesys-XXXXXX";
        root = mkdtemp(tmpl);
    }
    ~FakeSys() { fs::remove_all(root); }
    void file(const std::string &rel, const std::string &text) {
        const fs::path p = root / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p) << text << "\n";
    }
};

const std::string kZero = "0000:0000:0000:0000:0000:0000:0000:0000";

std::string no_interface(const std::string &) {
    return "";
}

} // namespace

TEST_CASE("matrix interface: the loopback interface's address, a missing one names the others") {
    CHECK(interface_address("lo") == "127.0.0.1");
    try {
        interface_address("nosuch0");
        FAIL("no error");
    } catch (const MatrixAddressError &e) {
        const std::string what = e.what();
        CHECK(what.find("no network interface 'nosuch0' on this node (it has ") == 0);
        CHECK(what.find("lo") != std::string::npos);
    }
}

TEST_CASE("matrix device: RoCE's IPv4 GID, RoCE v2 first, link-local and zero GIDs skipped") {
    FakeSys sys;
    const std::string port = "class/infiniband/mlx5_0/ports/1/";
    sys.file(port + "gids/0", "fe80:0000:0000:0000:0200:00ff:fe00:0001");
    sys.file(port + "gid_attrs/types/0", "IB/RoCE v1");
    sys.file(port + "gids/1", "0000:0000:0000:0000:0000:ffff:0a00:0002");
    sys.file(port + "gid_attrs/types/1", "IB/RoCE v1");
    sys.file(port + "gid_attrs/ndevs/1", "eth1");
    sys.file(port + "gids/2", "0000:0000:0000:0000:0000:ffff:0a00:0002");
    sys.file(port + "gid_attrs/types/2", "RoCE v2");
    sys.file(port + "gids/3", kZero);
    CHECK(rdma_device_address(sys.root, "mlx5_0", no_interface) == "10.0.0.2");
}

TEST_CASE("matrix device: InfiniBand via IPoIB's interface, Soft-RoCE via its parent") {
    FakeSys sys;
    // IB GIDs are subnet prefix + GUID: no IP address in them.
    sys.file("class/infiniband/mlx5_1/ports/1/gids/0", "fe80:0000:0000:0000:0002:c903:0031:7a01");
    sys.file("class/infiniband/mlx5_1/device/net/ib0/mtu", "2044");
    sys.file("class/infiniband/rxe0/ports/1/gids/0", kZero);
    sys.file("class/infiniband/rxe0/parent", "enp0s3");
    auto address_of = [](const std::string &ifname) -> std::string {
        return ifname == "ib0" ? "192.168.10.5" : ifname == "enp0s3" ? "10.0.2.15" : "";
    };
    CHECK(rdma_device_address(sys.root, "mlx5_1", address_of) == "192.168.10.5");
    CHECK(rdma_device_address(sys.root, "rxe0", address_of) == "10.0.2.15");
    try {
        rdma_device_address(sys.root, "mlx5_1", no_interface);
        FAIL("no error");
    } catch (const MatrixAddressError &e) {
        CHECK(std::string(e.what()) == "RDMA device 'mlx5_1' has no IP address on this node (none "
                                       "in its GID table, nor on ib0)");
    }
}

TEST_CASE("matrix device: a device this node does not have names the ones it has") {
    FakeSys sys;
    sys.file("class/infiniband/rxe0/parent", "eth0");
    sys.file("class/infiniband/siw0/parent", "eth0");
    try {
        rdma_device_address(sys.root, "mlx5_0", no_interface);
        FAIL("no error");
    } catch (const MatrixAddressError &e) {
        CHECK(std::string(e.what()) == "no RDMA device 'mlx5_0' on this node (it has rxe0, siw0)");
    }
    try {
        rdma_device_address((sys.root / "none").string(), "mlx5_0", no_interface);
        FAIL("no error");
    } catch (const MatrixAddressError &e) {
        CHECK(std::string(e.what()) == "no RDMA device 'mlx5_0' on this node (it has none)");
    }
}
