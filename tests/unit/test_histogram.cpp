#include <catch2/catch.hpp>
TEST_CASE("histogram placeholder") { REQUIRE(1 + 1 == 2); }
