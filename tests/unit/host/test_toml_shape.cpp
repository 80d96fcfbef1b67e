// The bounds checked on TOML text before it is parsed (toml_shape.hpp):
// dotted keys, headers and nesting past them are refused with a position,
// and the dots and brackets in strings, comments and numbers never count.
#include "cmdbench/host/params/toml_shape.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace cmdbench;

namespace {

std::string dotted(size_t segments) {
    std::string key = "a";
    for (size_t i = 1; i < segments; ++i)
        key += ".a";
    return key;
}

} // namespace

TEST_CASE("a dotted key past the segment bound is refused where it goes past") {
    const std::string text = "name = \"x\"\n" + dotted(50000) + " = 1\n";
    auto err = toml_shape_error(text);
    REQUIRE(err);
    CHECK(err->line == 2);
    // The 32nd dot, after 32 one-letter segments: column 2 * 32 + 1 - 1.
    CHECK(err->column == 2 * kMaxTomlKeySegments);
    CHECK_THAT(err->message, Catch::Contains("more than 32 segments"));
    CHECK_FALSE(toml_shape_error(dotted(kMaxTomlKeySegments) + " = 1\n"));
}

TEST_CASE("a table header past the bound is refused, [x] and [[x]] alike") {
    CHECK(toml_shape_error("[" + dotted(50000) + "]\n"));
    CHECK(toml_shape_error("[[" + dotted(50000) + "]]\n"));
    CHECK_FALSE(toml_shape_error("[[" + dotted(kMaxTomlKeySegments) + "]]\nx = 1\n"));
}

TEST_CASE("depth adds up across a header, dotted keys and inline tables") {
    const std::string key = dotted(30);
    std::string text = "[" + key + "]\n" + key + " = ";
    for (int i = 0; i < 3; ++i)
        text += "{" + key + " = ";
    text += "1";
    for (int i = 0; i < 3; ++i)
        text += "}";
    auto err = toml_shape_error(text + "\n");
    REQUIRE(err);
    CHECK(err->line == 2);
    CHECK_THAT(err->message, Catch::Contains("nest more than 128 deep"));
    CHECK_FALSE(toml_shape_error("[" + key + "]\n" + key + " = {" + key + " = 1}\n"));
}

TEST_CASE("arrays nested past the bound are refused, however they are spread over lines") {
    const std::string deep = "x = " + std::string(200, '[') + std::string(200, ']') + "\n";
    CHECK(toml_shape_error(deep));
    const std::string shallow = "x = [\n [1, 2],\n [3, 4],\n]\n";
    CHECK_FALSE(toml_shape_error(shallow));
}

TEST_CASE("dots and brackets in strings, comments and numbers are not counted") {
    const std::string many = std::string(5000, '.') + std::string(500, '[');
    CHECK_FALSE(toml_shape_error("x = \"" + many + "\"\n"));
    CHECK_FALSE(toml_shape_error("x = '" + many + "'\n"));
    CHECK_FALSE(toml_shape_error("x = \"\"\"\n" + many + "\n\"\"\"\n"));
    CHECK_FALSE(toml_shape_error("x = '''" + many + "''''\n"));
    CHECK_FALSE(toml_shape_error("x = \"\\\"" + many + "\"\n"));
    CHECK_FALSE(toml_shape_error("# " + many + "\nx = 1\n"));
    CHECK_FALSE(toml_shape_error("x = 1.5\ny = 1979-05-27T07:32:00.999\nz = [1.5, 2.5]\n"));
    CHECK_FALSE(toml_shape_error("\"a.b\".\"c.d\" = 1\n"));
}
