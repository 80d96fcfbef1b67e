// The policy `cmdbench serve` applies to what a client asks for.
#include "cmdbench/host/serve/serve_limits.hpp"

#include <catch2/catch.hpp>

using namespace cmdbench;
using Catch::Contains;

TEST_CASE("serve limits: the defaults refuse 1 GiB sizes and privileged ports, naming them") {
    const ServeLimits l = ServeLimits::defaults();
    std::map<std::string, ParamValue> p = {{"sizes", std::vector<int64_t>{64, 1073741824}}};
    Status why = l.check(p, 10);
    REQUIRE_FALSE(why.ok());
    CHECK_THAT(why.error(), Contains("'sizes' = 1073741824") && Contains("limit of 67108864") &&
                                Contains("--limit sizes="));
    p = {{"sizes", std::vector<int64_t>{64, 67108864}}, {"port", int64_t(0)}};
    CHECK(l.check(p, 10).ok());
    p = {{"port", int64_t(22)}};
    why = l.check(p, 10);
    REQUIRE_FALSE(why.ok());
    CHECK_THAT(why.error(), Contains("'port' = 22") && Contains("--allow-privileged-ports"));
    p = {{"port", int64_t(1024)}};
    CHECK(l.check(p, 10).ok());
    why = l.check({}, 7200);
    REQUIRE_FALSE(why.ok());
    CHECK_THAT(why.error(), Contains("'timeout' = 7200") && Contains("limit of 3600"));
}

TEST_CASE("serve limits: options raise, remove and turn them off") {
    Registry none; // no plugins: only "timeout" can be named
    CHECK_THROWS_WITH(limits_from_options({"timeout=2h"}, false, false, none),
                      Contains("--limit timeout") && Contains("K, M, G or T"));
    ServeLimits l = limits_from_options({"timeout=7200"}, true, false, none);
    CHECK(l.check({{"port", int64_t(22)}}, 7200).ok());
    l = limits_from_options({"timeout=none"}, false, false, none);
    CHECK(l.check({}, 86400).ok());
    CHECK_THROWS_WITH(limits_from_options({"sizes=1G"}, false, false, none),
                      Contains("--limit sizes") && Contains("no loaded test or transport"));
    CHECK_THROWS_WITH(limits_from_options({"=5"}, false, false, none), Contains("KEY=MAX"));
    l = limits_from_options({}, false, true, none);
    CHECK(l.check({{"sizes", std::vector<int64_t>{1073741824}}, {"port", int64_t(22)}}, 1e5).ok());
}

TEST_CASE("serve limits: byte counts with suffixes") {
    CHECK(parse_byte_count("0", "--x") == 0);
    CHECK(parse_byte_count("64M", "--x") == 67108864);
    CHECK(parse_byte_count("1G", "--x") == 1073741824);
    CHECK(parse_byte_count("2k", "--x") == 2048);
    CHECK(parse_byte_count("3T", "--x") == (int64_t(3) << 40));
    CHECK_THROWS_WITH(parse_byte_count("-1", "--max-memory"), Contains("--max-memory"));
    CHECK_THROWS(parse_byte_count("1.5G", "--x"));
    CHECK_THROWS(parse_byte_count("", "--x"));
    CHECK_THROWS(parse_byte_count("99999999999T", "--x"));
}
