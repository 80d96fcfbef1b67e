#include <catch2/catch.hpp>
TEST_CASE("scenario placeholder") { REQUIRE(1 + 1 == 2); }
