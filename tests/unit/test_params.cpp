#include <catch2/catch.hpp>
TEST_CASE("params placeholder") { REQUIRE(1 + 1 == 2); }
