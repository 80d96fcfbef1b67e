// parse_host_port and parse_port: every form --server and `server =` accept,
// and every malformed one refused with the reason.
#include "cmdbench/control/host_port.hpp"

#include <catch2/catch.hpp>

using namespace cmdbench;

namespace {

HostPort parsed(const std::string &spec) {
    const Expected<HostPort> hp = parse_host_port(spec, 7470);
    INFO("spec '" << spec << "': " << (hp ? "" : hp.error()));
    REQUIRE(hp.has_value());
    return *hp;
}

std::string refusal(const std::string &spec) {
    const Expected<HostPort> refused = parse_host_port(spec, 7470);
    REQUIRE_FALSE(refused.has_value());
    return refused.error();
}

} // namespace

TEST_CASE("host_port: the accepted forms") {
    CHECK(parsed("example.org").host == "example.org");
    CHECK(parsed("example.org").port == 7470);
    CHECK(parsed("10.0.0.2:9000").host == "10.0.0.2");
    CHECK(parsed("10.0.0.2:9000").port == 9000);
    CHECK(parsed("h:1").port == 1);
    CHECK(parsed("h:65535").port == 65535);
    CHECK(parsed("h:00080").port == 80);
    CHECK(parsed("[::1]").host == "::1");
    CHECK(parsed("[::1]").port == 7470);
    CHECK(parsed("[fe80::1%eth0]:7000").host == "fe80::1%eth0");
    CHECK(parsed("[fe80::1%eth0]:7000").port == 7000);
    // A bare v6 address: more than one colon, so no port.
    CHECK(parsed("fe80::1").host == "fe80::1");
    CHECK(parsed("fe80::1").port == 7470);
}

TEST_CASE("host_port: malformed ports are refused, not wrapped or truncated") {
    CHECK(refusal("h:99999") == "port 99999 is out of range");
    CHECK(refusal("h:65536") == "port 65536 is out of range");
    CHECK(refusal("h:18446744073709551617") == "port 18446744073709551617 is out of range");
    CHECK(refusal("h:0") == "port 0 is out of range");
    CHECK(refusal("h:abc") == "port 'abc' is not a number");
    CHECK(refusal("h:7x") == "port '7x' is not a number");
    CHECK(refusal("h: 7") == "port ' 7' is not a number");
    CHECK(refusal("h:-1") == "port '-1' is not a number");
    CHECK(refusal("h:") == "the port is empty");
    CHECK(refusal("[::1]:") == "the port is empty");
    CHECK(refusal("[::1]:99999") == "port 99999 is out of range");
}

TEST_CASE("host_port: malformed hosts are refused") {
    CHECK(refusal("") == "the host is empty");
    CHECK(refusal(":7470") == "the host is empty");
    CHECK(refusal("[]") == "the host is empty");
    CHECK(refusal("[]:7470") == "the host is empty");
    CHECK(refusal("[::1") == "'[' without a closing ']'");
    CHECK(refusal("[::1]7000") == "expected ':PORT' after ']', got '7000'");
    CHECK(refusal("::1]") == "stray '[' or ']'");
    CHECK(refusal("[[::1]]") == "stray '[' or ']'");
}

TEST_CASE("host_port: parse_port alone") {
    const Expected<uint16_t> port = parse_port("7471");
    REQUIRE(port.has_value());
    CHECK(*port == 7471);
    CHECK(parse_port("").error() == "the port is empty");
    CHECK(parse_port("65536").error() == "port 65536 is out of range");
}
