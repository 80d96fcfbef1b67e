#include <catch2/catch.hpp>
TEST_CASE("control placeholder") { REQUIRE(1 + 1 == 2); }
