// verbs-lat's and verbs-bw's parameters read through a fake host: the
// defaults each test resolves (inline size, atomics' sizes) and the checks
// across keys that the host's table cannot make.
#include "fake_host.hpp"
#include "qp_notes.hpp"
#include "verbs_params.hpp"

#include <catch2/catch.hpp>
#include <cmdbench/rdma-util/device_checks.hpp>

using Catch::Contains;
using cmdbench::verbs::Op;
using cmdbench::verbs::QpType;
using verbs_test::FakeHost;

namespace {

const cmdbench_test &descriptor(bool bandwidth) {
    static const cmdbench_test lat = cmdbench::verbs::verbs_test_descriptor(false, "lat", nullptr);
    static const cmdbench_test bw = cmdbench::verbs::verbs_test_descriptor(true, "bw", nullptr);
    return bandwidth ? bw : lat;
}

struct Test {
    explicit Test(bool bandwidth) : bandwidth(bandwidth), host(descriptor(bandwidth)) {}
    Test &set(const std::string &key, const std::string &value) {
        host.set(key, value);
        return *this;
    }
    cmdbench::verbs::Params read() {
        cmdbench::verbs::Run run(host.env());
        return cmdbench::verbs::read_params(run, bandwidth);
    }
    bool bandwidth;
    FakeHost host;
};

} // namespace

TEST_CASE("verbs params: defaults are perftest's, the inline size resolved") {
    const cmdbench::verbs::Params lat = Test(false).read();
    CHECK_FALSE(lat.bandwidth);
    CHECK(lat.op == Op::Send);
    CHECK(lat.qp_type == QpType::Rc);
    CHECK(lat.sizes == std::vector<int64_t>{2});
    CHECK(lat.iterations == 1000);
    CHECK(lat.inline_size == 236);
    CHECK_FALSE(lat.inline_explicit);
    CHECK(lat.qps == 1);
    CHECK(lat.threads == 1);

    const cmdbench::verbs::Params bw = Test(true).read();
    CHECK(bw.bandwidth);
    CHECK(bw.sizes == std::vector<int64_t>{65536});
    CHECK(bw.sizes_by_default);
    CHECK(bw.iterations == 1000); // ib_send_bw's
    CHECK(bw.post_list == 1);
    CHECK_FALSE(bw.run_infinitely);
    CHECK(bw.inline_size == 0);
    CHECK(bw.tx_depth == 128);
    CHECK(bw.cq_mod == cmdbench::verbs::kCqModAuto);
    CHECK(bw.rx_depth == cmdbench::verbs::kDefaultRxDepth);
    CHECK(cmdbench::verbs::default_sizes(true) == std::vector<int64_t>{-1});
}

TEST_CASE("verbs params: iterations default to each perftest tool's -n, a set one stays") {
    // ib_write_bw --help: default 5000; ib_send_bw, ib_read_bw, ib_atomic_bw
    // and every ib_*_lat: 1000.
    const std::vector<std::pair<std::string, int64_t>> bw = {
        {"send", 1000}, {"write", 5000}, {"read", 1000}, {"fetch_add", 1000}, {"cmp_swap", 1000}};
    for (const auto &[op, want] : bw) {
        CAPTURE(op);
        CHECK(Test(true).set("op", op).read().iterations == want);
        CHECK(Test(false).set("op", op).read().iterations == 1000);
    }
    CHECK(Test(true).set("qp_type", "ud").read().iterations == 1000);
    CHECK(Test(true).set("op", "write").set("iterations", "1000").read().iterations == 1000);
    CHECK(Test(true).set("op", "send").set("iterations", "5000").read().iterations == 5000);
    CHECK_THROWS_WITH(Test(true).set("iterations", "0").read(),
                      "verbs-bw: iterations = 0 must be in [1, 1000000000] (or -1 for the op's "
                      "perftest default)");
}

TEST_CASE("verbs params: verbs-bw sizes: [-1] is the default, an explicit size is kept") {
    const cmdbench::verbs::Params set = Test(true).set("sizes", "[65536]").read();
    CHECK(set.sizes == std::vector<int64_t>{65536});
    CHECK_FALSE(set.sizes_by_default); // UD checks it against the MTU like any other
    CHECK(Test(true).set("sizes", "[-1]").read().sizes_by_default);
    CHECK(Test(true).set("op", "fetch_add").read().sizes == std::vector<int64_t>{8});
    CHECK_THROWS_WITH(Test(true).set("sizes", "[-1, 4096]").read(),
                      "verbs-bw: sizes = -1 must be in [1, 1073741824] (or sizes = [-1] alone for "
                      "the default)");
    CHECK_THROWS_WITH(Test(true).set("sizes", "[0]").read(),
                      Contains("sizes = 0 must be in [1, 1073741824]"));
}

TEST_CASE("verbs params: post_list within tx_depth, run_infinitely with what it needs") {
    CHECK(Test(true).set("post_list", "128").read().post_list == 128);
    CHECK_THROWS_WITH(Test(true).set("post_list", "129").read(),
                      "verbs-bw: post_list = 129 must be in [1, tx_depth] (tx_depth = 128)");
    CHECK_THROWS_WITH(Test(true).set("post_list", "16").set("tx_depth", "8").read(),
                      "verbs-bw: post_list = 16 must be in [1, tx_depth] (tx_depth = 8)");
    const cmdbench::verbs::Params forever =
        Test(true).set("run_infinitely", "true").set("duration", "1").read();
    CHECK(forever.run_infinitely);
    CHECK_THROWS_WITH(Test(true).set("run_infinitely", "true").read(),
                      Contains("run_infinitely = true needs duration > 0"));
    CHECK_THROWS_WITH(
        Test(true).set("run_infinitely", "true").set("duration", "1").set("sizes", "[1, 2]").read(),
        Contains("sizes must list one size"));
    CHECK_THROWS_WITH(Test(true)
                          .set("run_infinitely", "true")
                          .set("duration", "1")
                          .set("bidirectional", "true")
                          .read(),
                      Contains("not available with bidirectional = true"));
    CHECK_THROWS_WITH(
        Test(true).set("run_infinitely", "true").set("duration", "1").set("qp_type", "ud").read(),
        Contains("not available with qp_type = \"ud\""));
}

TEST_CASE("verbs params: inline data by default only on devices perftest knows") {
    CHECK(cmdbench::rdma::inline_by_default(0x02c9));         // NVIDIA/Mellanox
    CHECK(cmdbench::rdma::inline_by_default(0x14e4));         // Broadcom
    CHECK_FALSE(cmdbench::rdma::inline_by_default(0xffffff)); // Soft-RoCE (rxe)
    CHECK_FALSE(cmdbench::rdma::inline_by_default(0x626d74)); // siw
    CHECK_FALSE(cmdbench::rdma::inline_by_default(nullptr));
    cmdbench::verbs::InlineNote off{"rxe0", 0, false, true};
    CHECK(cmdbench::verbs::inline_text(off) ==
          "inline data up to 0 bytes (inline_size = -1 on rxe0: perftest uses no inline data on a "
          "device it does not recognize)");
    cmdbench::verbs::InlineNote set{"rxe0", 64, true, false};
    CHECK(cmdbench::verbs::inline_text(set) ==
          "inline data up to 64 bytes (inline_size as set) on rxe0");
}

TEST_CASE("verbs params: the default inline size follows op and qp_type, a set one stays") {
    CHECK(Test(false).set("qp_type", "ud").read().inline_size == 188);
    CHECK(Test(false).set("op", "write").read().inline_size == 236);
    CHECK(Test(false).set("op", "read").read().inline_size == 0);
    CHECK(Test(false).set("op", "fetch_add").read().inline_size == 0);
    const cmdbench::verbs::Params set = Test(false).set("inline_size", "64").read();
    CHECK(set.inline_size == 64);
    CHECK(set.inline_explicit);
}

TEST_CASE("verbs params: cross-key checks name the keys and the range") {
    CHECK_THROWS_WITH(Test(false).set("sizes", "[]").read(),
                      "verbs-lat: sizes must list at least one size");
    CHECK_THROWS_WITH(Test(false).set("qps", "2").set("threads", "3").read(),
                      "verbs-lat: threads = 3 must be in [1, qps] (qps = 2)");
    CHECK_THROWS_WITH(Test(true).set("cq_mod", "200").read(),
                      "verbs-bw: cq_mod = 200 must be in [1, tx_depth] (tx_depth = 128)");
    CHECK_NOTHROW(Test(true).set("cq_mod", "128").read());
    CHECK_THROWS_WITH(Test(false).set("op", "read").set("inline_size", "64").read(),
                      Contains("inline_size = 64 does not apply to op = \"read\""));
    CHECK_NOTHROW(Test(false).set("qps", "4").set("threads", "4").read());
}

TEST_CASE("verbs params: atomics take 8-byte sizes only, the default becoming [8]") {
    const cmdbench::verbs::Params lat = Test(false).set("op", "fetch_add").read();
    CHECK(lat.sizes == std::vector<int64_t>{8});
    CHECK(Test(true).set("op", "cmp_swap").read().sizes == std::vector<int64_t>{8});
    CHECK(Test(false).set("op", "cmp_swap").set("sizes", "[8, 8]").read().sizes.size() == 2);
    CHECK_THROWS_WITH(Test(false).set("op", "fetch_add").set("sizes", "[16]").read(),
                      Contains("sizes = [16] does not apply to op = \"fetch_add\""));
    CHECK_THROWS_WITH(Test(false).set("op", "fetch_add").set("inline_size", "8").read(),
                      Contains("an atomic carries no inline data"));
    CHECK_THROWS_WITH(Test(true).set("op", "cmp_swap").set("bidirectional", "true").read(),
                      Contains("bidirectional = true does not apply to op = \"cmp_swap\""));
}

TEST_CASE("verbs params: qp_type ud takes send one way only") {
    CHECK_NOTHROW(Test(true).set("qp_type", "ud").read());
    CHECK_THROWS_WITH(Test(false).set("qp_type", "ud").set("op", "write").read(),
                      Contains("qp_type = \"ud\" needs op = \"send\""));
    CHECK_THROWS_WITH(Test(true).set("qp_type", "ud").set("bidirectional", "true").read(),
                      Contains("bidirectional = true is not available with qp_type = \"ud\""));
}

TEST_CASE("verbs params: what the QP layer gets, region and link") {
    const cmdbench::verbs::Params p = Test(true)
                                          .set("sizes", "[2, 100]")
                                          .set("qps", "3")
                                          .set("bind_address", "10.0.0.1")
                                          .set("port", "7000")
                                          .read();
    CHECK(p.largest_size() == 100);
    CHECK(p.region() == 128); // cache-line rounded
    CHECK(Test(false).read().region() == 64);
    const cmdbench::verbs::LinkSpec link = p.link();
    CHECK(link.qps == 3);
    CHECK(link.bind_address == "10.0.0.1");
    CHECK(link.port == 7000);
}

TEST_CASE("verbs params: the link keys default to rdma_cm and reach the QP layer") {
    const cmdbench::verbs::LinkSpec cm = Test(false).read().link();
    CHECK(cm.connect == cmdbench::verbs::Connect::RdmaCm);
    CHECK(cm.device.empty());
    CHECK(cm.ib_port == 1);
    CHECK(cm.gid_index == -1);
    CHECK(cm.mtu == 0);
    CHECK(cm.sl == 0);
    CHECK(cm.traffic_class == 0);
    const cmdbench::verbs::Params p = Test(true)
                                          .set("connect", "exchange")
                                          .set("device", "rxe1")
                                          .set("ib_port", "2")
                                          .set("gid_index", "1")
                                          .set("mtu", "1024")
                                          .set("sl", "3")
                                          .set("traffic_class", "96")
                                          .set("qp_type", "uc")
                                          .set("op", "write")
                                          .read();
    const cmdbench::verbs::LinkSpec x = p.link();
    CHECK(x.connect == cmdbench::verbs::Connect::Exchange);
    CHECK(x.device == "rxe1");
    CHECK(x.ib_port == 2);
    CHECK(x.gid_index == 1);
    CHECK(x.mtu == 1024);
    CHECK(x.sl == 3);
    CHECK(x.traffic_class == 96);
    CHECK(p.connected_type() == IBV_QPT_UC);
    CHECK(Test(false).read().connected_type() == IBV_QPT_RC);
    // rdma_cm honours these: a device, a port and a type of service
    CHECK_NOTHROW(Test(false).set("device", "rxe0").set("traffic_class", "32").read());
}

TEST_CASE("verbs params: keys rdma_cm cannot honour need connect = exchange") {
    CHECK_THROWS_WITH(Test(false).set("mtu", "1024").read(),
                      "verbs-lat: mtu = 1024 needs connect = \"exchange\" (rdma_cm takes the "
                      "path MTU from the route)");
    CHECK_THROWS_WITH(Test(true).set("sl", "2").read(),
                      Contains("sl = 2 needs connect = \"exchange\""));
    CHECK_THROWS_WITH(Test(false).set("gid_index", "0").read(),
                      Contains("gid_index = 0 needs connect = \"exchange\""));
    CHECK_THROWS_WITH(Test(false).set("qp_type", "uc").read(),
                      Contains("qp_type = \"uc\" needs connect = \"exchange\" (librdmacm makes "
                               "RC and UD QPs only)"));
    CHECK_NOTHROW(Test(false).set("connect", "exchange").set("mtu", "1024").read());
    CHECK_NOTHROW(Test(false).set("connect", "exchange").set("sl", "15").read());
}

TEST_CASE("verbs params: the rdma_cm address keys do not apply to connect = exchange") {
    CHECK_THROWS_WITH(Test(false).set("connect", "exchange").set("bind_address", "10.0.0.1").read(),
                      Contains("bind_address = \"10.0.0.1\" applies to connect = \"rdma_cm\" "
                               "only"));
    CHECK_THROWS_WITH(Test(true).set("connect", "exchange").set("port", "7000").read(),
                      Contains("port = 7000 (the rdma_cm port) applies to connect = \"rdma_cm\" "
                               "only"));
}

TEST_CASE("verbs params: mtu is one of the IB MTUs") {
    for (const char *bad : {"100", "1000", "4000"})
        CHECK_THROWS_WITH(Test(false).set("connect", "exchange").set("mtu", bad).read(),
                          Contains(std::string("mtu = ") + bad +
                                   " must be one of 0 (the port's active MTU), 256, 512, 1024, "
                                   "2048, 4096"));
    for (const char *good : {"0", "256", "512", "2048", "4096"})
        CHECK(Test(false).set("connect", "exchange").set("mtu", good).read().mtu ==
              std::stoi(good));
}

TEST_CASE("verbs params: qp_type uc takes send and write, send one way") {
    auto uc = [](Test &&t) -> Test & { return t.set("connect", "exchange").set("qp_type", "uc"); };
    CHECK_NOTHROW(uc(Test(false)).read());
    CHECK_NOTHROW(uc(Test(true)).set("op", "write").set("bidirectional", "true").read());
    for (const char *op : {"read", "fetch_add", "cmp_swap"})
        CHECK_THROWS_WITH(uc(Test(false)).set("op", op).read(),
                          Contains(std::string("qp_type = \"uc\" takes op = \"send\" or "
                                               "\"write\" (a UC QP has no RDMA READ or atomics): "
                                               "op = \"") +
                                   op + "\" is not available with it"));
    CHECK_THROWS_WITH(uc(Test(true)).set("bidirectional", "true").read(),
                      Contains("bidirectional = true with op = \"send\" is not available with "
                               "qp_type = \"uc\""));
}
