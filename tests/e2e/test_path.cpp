// End to end: every run records the data path of both sides (runs[].path,
// docs/results.md): a TCP run with the local server goes over loopback, so
// both sides name `lo` with the MTU the kernel gives it, and name no RDMA
// device; the table and the HTML report show it.
#include "process.hpp"
#include "raw_control.hpp"
#include "serve_fixture.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

using nlohmann::json;

namespace {

const char *kTcp = R"(
[[run]]
name = "latency/tcp"
group = "latency"
variant = "tcp"
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 100
)";

std::string read_all(const std::string &path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string lo_mtu() {
    std::string mtu;
    std::ifstream("/sys/class/net/lo/mtu") >> mtu;
    return mtu.empty() ? "unknown" : mtu;
}

// The payload of the RunEnd a `cmdbench serve` on `port` sends after serving
// a test that does nothing, to a client that says `software` in its Hello;
// "" when the exchange fails.
std::string served_run_end(int port, const std::string &software) {
    const int fd = raw::connect_to("127.0.0.1", port, 2000);
    if (fd < 0) return "";
    uint16_t type = 0;
    std::string payload, end;
    const std::string minus_one = raw::u32(0xffffffff) + raw::u32(0xffffffff);
    if (raw::send_frame(fd, raw::kHello, raw::hello_payload(software)) &&
        raw::recv_frame(fd, 3000, type, payload) && type == raw::kHelloAck &&
        raw::send_frame(fd, raw::kAuth, raw::str("")) && raw::recv_frame(fd, 3000, type, payload) &&
        type == raw::kAuthAck &&
        raw::send_frame(fd, raw::kRunRequest, raw::run_request_payload("old", "noop", "", 10)) &&
        raw::recv_frame(fd, 3000, type, payload) && type == raw::kRunAccept &&
        // Our RunEnd as a client before kFeaturePath sends it: ok, "", no CPU time.
        raw::send_frame(fd, raw::kRunEnd, raw::u32(0) + raw::str("") + minus_one + minus_one) &&
        raw::recv_frame(fd, 5000, type, payload) && type == raw::kRunEnd)
        end = payload;
    raw::send_frame(fd, raw::kBye, "");
    close(fd);
    return end;
}

} // namespace

TEST_CASE("the server sends its path only to a client that announces it reads it") {
    const std::string fixture = std::string(CMDBENCH_BINARY_DIR) + "/tests/fixtures/good.so";
    {
        // An older client refuses trailing bytes: it gets the RunEnd it knows.
        ServeProcess server({"--plugin-dir", fixture});
        const std::string old = served_run_end(server.port(), "cmdbench 0.0.9");
        CHECK(old.size() == 4 + 4 + 8 + 8);
    }
    ServeProcess server({"--plugin-dir", fixture});
    const std::string now = served_run_end(server.port(), "cmdbench 0.1.0 +path");
    REQUIRE(now.size() > 4 + 4 + 8 + 8 + 4);
    const json side = json::parse(now.substr(4 + 4 + 8 + 8 + 4));
    CHECK(side.at("address") == "127.0.0.1");
    CHECK(side.at("interface").at("name") == "lo");
    CHECK(side.at("rdma").is_null());
}

// The length-prefixed strings of a RunEnd after its CPU times (its error
// is empty here).
std::vector<std::string> run_end_strings(const std::string &payload) {
    std::vector<std::string> out;
    for (size_t at = 4 + 4 + 8 + 8; at + 4 <= payload.size();) {
        const auto *p = reinterpret_cast<const unsigned char *>(payload.data() + at);
        const size_t n = size_t(p[0]) << 24 | size_t(p[1]) << 16 | size_t(p[2]) << 8 | p[3];
        out.push_back(payload.substr(at + 4, n));
        at += 4 + n;
    }
    return out;
}

TEST_CASE("the server sends its counters after its path to a client that reads them") {
    const std::string fixture = std::string(CMDBENCH_BINARY_DIR) + "/tests/fixtures/good.so";
    {
        // A client of +path alone gets the path and nothing after it.
        ServeProcess server({"--plugin-dir", fixture});
        const auto strings = run_end_strings(served_run_end(server.port(), "cmdbench 0.1.0 +path"));
        CHECK(strings.size() == 1); // the path
    }
    ServeProcess server({"--plugin-dir", fixture});
    const auto strings =
        run_end_strings(served_run_end(server.port(), "cmdbench 0.1.0 +path +counters"));
    REQUIRE(strings.size() == 2);
    const json counters = json::parse(strings[1]);
    INFO(counters.dump(2));
    CHECK(counters.at("machine").get<std::string>().size() > 0);
    // A test that does nothing still has the loopback's counters (zero or not).
    CHECK(counters.at("sources").at("net lo").at("rx_bytes").is_number_integer());
    CHECK(counters.at("sources").at("tcp").at("RetransSegs").is_number_integer());
}

TEST_CASE("a TCP run over loopback records lo on both sides, in JSON, table and HTML") {
    const std::string dir = temp_dir();
    const std::string scenario = dir + "/tcp.toml";
    std::ofstream(scenario) << kTcp;
    const ProcessResult r = run_process({cmdbench_exe(), "run", scenario, "--quiet", "-o",
                                         dir + "/out.json", "--report", dir + "/report.html"},
                                        120);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);

    const json doc = json::parse(read_all(dir + "/out.json"));
    const json &path = doc.at("runs").at(0).at("path");
    INFO(path.dump(2));
    CHECK(path.at("software_rdma") == false);
    for (const char *side : {"client", "server"}) {
        const json &s = path.at(side);
        CHECK(s.at("address") == "127.0.0.1");
        CHECK(s.at("interface").at("name") == "lo");
        CHECK(s.at("interface").at("mtu") == lo_mtu());
        CHECK(s.at("interface").at("driver") == "unknown"); // lo has no bus device
        CHECK(s.at("interface").at("pci_address") == "unknown");
        CHECK(s.at("rdma").is_null());
        CHECK(s.at("devices").empty());
        CHECK(s.at("software_rdma") == false);
    }

    const std::string line =
        "path: client and server lo (driver unknown, speed unknown, mtu " + lo_mtu() + ")\n";
    CHECK(r.out.find("== latency/tcp: test=pingpong transport=tcp\n" + line) != std::string::npos);
    CHECK(r.out.find("software RDMA") == std::string::npos);

    const std::string html = read_all(dir + "/report.html");
    CHECK(html.find("<caption>Data path</caption>") != std::string::npos);
    CHECK(html.find("<td>lo (driver unknown, speed unknown, mtu " + lo_mtu() + ")</td>") !=
          std::string::npos);
    CHECK(html.find("id=\"software-rdma\"") == std::string::npos);

    // `cmdbench compare` reads the path back from the results file.
    const ProcessResult c = run_process(
        {cmdbench_exe(), "compare", dir + "/out.json", "--report", dir + "/again.html"}, 60);
    REQUIRE(c.exit_code == 0);
    CHECK(read_all(dir + "/again.html").find("<td>lo (driver unknown") != std::string::npos);
}
