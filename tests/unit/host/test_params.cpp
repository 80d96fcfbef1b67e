// Typed parameters: parse_text, check, to_text and the help strings.
#include "cmdbench/host/params/params.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using namespace cmdbench;

namespace {

cmdbench_param decl(uint32_t type) {
    cmdbench_param p{};
    p.struct_size = sizeof p;
    p.name = "x";
    p.type = type;
    return p;
}

cmdbench_param int_decl(int64_t lo, int64_t hi, uint32_t type = CMDBENCH_PARAM_INT) {
    cmdbench_param p = decl(type);
    p.min_int = lo;
    p.max_int = hi;
    return p;
}

cmdbench_param double_decl(double lo, double hi) {
    cmdbench_param p = decl(CMDBENCH_PARAM_DOUBLE);
    p.min_double = lo;
    p.max_double = hi;
    return p;
}

cmdbench_param string_decl(const char *choices = nullptr) {
    cmdbench_param p = decl(CMDBENCH_PARAM_STRING);
    p.choices = choices;
    return p;
}

// The error of parse_text, or "<no error>" so a passing parse fails the test.
std::string error_of(const cmdbench_param &d, const std::string &text) {
    auto r = parse_text(d, text);
    if (!r) return r.error();
    return "<no error>";
}

ParamValue value_of(const cmdbench_param &d, const std::string &text) {
    auto r = parse_text(d, text);
    INFO("text: " << text);
    if (!r) FAIL("unexpected error: " << r.error());
    return *r;
}

using List = std::vector<int64_t>;

} // namespace

TEST_CASE("bool parameters") {
    auto d = decl(CMDBENCH_PARAM_BOOL);
    CHECK(value_of(d, "true") == ParamValue{true});
    CHECK(value_of(d, "false") == ParamValue{false});
    CHECK(error_of(d, "1") == "expected a boolean, got an integer");
    CHECK(error_of(d, "\"yes\"") == "expected a boolean, got a string");
    CHECK(error_of(d, "yes") == "expected a boolean, got 'yes', which is not a TOML value");
}

TEST_CASE("int parameters: type and range") {
    auto d = int_decl(1, 65535);
    CHECK(value_of(d, "80") == ParamValue{int64_t{80}});
    CHECK(value_of(d, "0x10") == ParamValue{int64_t{16}});
    CHECK(value_of(d, "65535") == ParamValue{int64_t{65535}});
    CHECK(error_of(d, "\"80\"") == "expected an integer, got a string");
    CHECK(error_of(d, "1.5") == "expected an integer, got a float");
    CHECK(error_of(d, "[1]") == "expected an integer, got an array");
    CHECK(error_of(d, "{a = 1}") == "expected an integer, got a table");
    CHECK(error_of(d, "0") == "must be in [1, 65535], got 0");
    CHECK(error_of(d, "65536") == "must be in [1, 65535], got 65536");
    CHECK(error_of(d, "") == "expected an integer, got nothing");
    CHECK(error_of(d, "1 2") == "expected an integer, got '1 2', which is not a TOML value");
    // Text may not smuggle in a second key.
    CHECK(error_of(d, "1\ny = 2") != "<no error>");

    auto full = int_decl(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
    CHECK(value_of(full, "-9223372036854775808") ==
          ParamValue{std::numeric_limits<int64_t>::min()});
}

TEST_CASE("double parameters accept integers and check the range") {
    auto d = double_decl(0, 10);
    CHECK(value_of(d, "1.5") == ParamValue{1.5});
    CHECK(value_of(d, "3") == ParamValue{3.0});
    CHECK(value_of(d, "10") == ParamValue{10.0});
    CHECK(error_of(d, "11") == "must be in [0, 10], got 11");
    CHECK(error_of(d, "-0.5") == "must be in [0, 10], got -0.5");
    CHECK(error_of(d, "nan") == "must be in [0, 10], got nan");
    CHECK(error_of(d, "true") == "expected a number, got a boolean");
}

TEST_CASE("string parameters, free and with choices") {
    auto free = string_decl();
    CHECK(value_of(free, "\"hello world\"") == ParamValue{std::string("hello world")});
    CHECK(value_of(free, "'lit\\eral'") == ParamValue{std::string("lit\\eral")});
    // Bare words need no quotes (handy for --set).
    CHECK(value_of(free, "host-1.example") == ParamValue{std::string("host-1.example")});
    CHECK(value_of(free, "10.0.0.1") == ParamValue{std::string("10.0.0.1")});
    CHECK(value_of(free, "") == ParamValue{std::string()});
    // ...but what parses as TOML keeps its type, and broken quotes stay errors.
    CHECK(error_of(free, "12") == "expected a string, got an integer");
    CHECK(error_of(free, "[\"a\"]") == "expected a string, got an array");
    CHECK(error_of(free, "\"open") == "expected a string, got '\"open', which is not a TOML value");

    auto choice = string_decl("tcp|udp");
    CHECK(value_of(choice, "\"tcp\"") == ParamValue{std::string("tcp")});
    CHECK(value_of(choice, "udp") == ParamValue{std::string("udp")});
    CHECK(error_of(choice, "\"x\"") == "must be one of tcp|udp, got \"x\"");
    CHECK(error_of(choice, "tc") == "must be one of tcp|udp, got \"tc\"");
    CHECK(error_of(choice, "\"tcp|udp\"") == "must be one of tcp|udp, got \"tcp|udp\"");
    CHECK(error_of(choice, "\"\"") == "must be one of tcp|udp, got \"\"");
}

TEST_CASE("int list parameters") {
    auto d = int_decl(1, 1073741824, CMDBENCH_PARAM_INT_LIST);
    CHECK(value_of(d, "[64, 4096]") == ParamValue{List{64, 4096}});
    CHECK(value_of(d, "64") == ParamValue{List{64}});
    CHECK(error_of(d, "[64, 0]") == "element 2 must be in [1, 1073741824], got 0");
    CHECK(error_of(d, "[0]") == "element 1 must be in [1, 1073741824], got 0");
    CHECK(error_of(d, "0") == "element 1 must be in [1, 1073741824], got 0");
    CHECK(error_of(d, "[]") == "must not be empty");
    CHECK(error_of(d, "[1, \"a\"]") == "element 2 must be an integer, got a string");
    CHECK(error_of(d, "[1, [2]]") == "element 2 must be an integer, got an array");
    CHECK(error_of(d, "\"a\"") == "expected an integer or an array of integers, got a string");
}

TEST_CASE("to_text writes canonical TOML values") {
    CHECK(to_text(true) == "true");
    CHECK(to_text(false) == "false");
    CHECK(to_text(int64_t{-64}) == "-64");
    CHECK(to_text(1.5) == "1.5");
    CHECK(to_text(3.0) == "3.0");
    CHECK(to_text(1e300) == "1e+300");
    CHECK(to_text(std::string("tcp")) == "\"tcp\"");
    CHECK(to_text(std::string("a\"b\\c\nd\te\x01")) == "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
    CHECK(to_text(List{64, 4096}) == "[64, 4096]");
    CHECK(to_text(List{}) == "[]");
}

TEST_CASE("to_text reads back through parse_text unchanged") {
    auto d = double_decl(-std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::infinity());
    for (double v : {0.1, -2.5e-10, 1e300, 3.0, 123456789.125, 1.0 / 3})
        CHECK(value_of(d, to_text(v)) == ParamValue{v});
    // inf has a text form, but no parameter accepts it (not even an unbounded one).
    const std::string inf = to_text(std::numeric_limits<double>::infinity());
    CHECK(parse_text_unchecked(d, inf).value() ==
          ParamValue{std::numeric_limits<double>::infinity()});
    CHECK(error_of(d, inf) == "must be a finite number, got inf");
    CHECK(error_of(d, "nan") == "must be a finite number, got nan");
    CHECK(error_of(double_decl(0, std::numeric_limits<double>::infinity()), inf) ==
          "must be a finite number in [0, inf], got inf");

    auto s = string_decl();
    for (std::string v : {"", "plain", "quote\" back\\slash", "line\nbreak\r\ttab",
                          "ctl\x01\x1f\x7f", "unicode \xc3\xa9\xe2\x82\xac"})
        CHECK(value_of(s, to_text(v)) == ParamValue{v});

    auto i = int_decl(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
    CHECK(value_of(i, to_text(std::numeric_limits<int64_t>::min())) ==
          ParamValue{std::numeric_limits<int64_t>::min()});
    auto l = int_decl(-10, 10, CMDBENCH_PARAM_INT_LIST);
    CHECK(value_of(l, to_text(List{-10, 0, 10})) == ParamValue{List{-10, 0, 10}});
    auto b = decl(CMDBENCH_PARAM_BOOL);
    CHECK(value_of(b, to_text(true)) == ParamValue{true});
}

TEST_CASE("check validates values built in code") {
    auto port = int_decl(1, 65535);
    CHECK(check_value(port, int64_t{80}).ok());
    CHECK(check_value(port, int64_t{0}).error() == std::string("must be in [1, 65535], got 0"));
    CHECK(check_value(port, std::string("80")).error() ==
          std::string("expected an integer, got a string"));
    CHECK(check_value(port, 1.0).error() == std::string("expected an integer, got a float"));

    auto ratio = double_decl(0.5, 2);
    CHECK(check_value(ratio, 1.0).ok());
    CHECK(check_value(ratio, int64_t{2}).ok());
    CHECK(check_value(ratio, int64_t{3}).error() == std::string("must be in [0.5, 2], got 3"));
    CHECK(check_value(ratio, true).error() == std::string("expected a number, got a boolean"));

    auto mode = string_decl("a|b");
    CHECK(check_value(mode, std::string("b")).ok());
    CHECK(check_value(mode, std::string("c")).error() ==
          std::string("must be one of a|b, got \"c\""));
    CHECK(check_value(mode, List{1}).error() ==
          std::string("expected a string, got an integer list"));

    auto sizes = int_decl(1, 100, CMDBENCH_PARAM_INT_LIST);
    CHECK(check_value(sizes, List{1, 100}).ok());
    CHECK(check_value(sizes, int64_t{5}).ok());
    CHECK(check_value(sizes, List{}).error() == std::string("must not be empty"));
    CHECK(check_value(sizes, List{1, 101}).error() ==
          std::string("element 2 must be in [1, 100], got 101"));

    CHECK(check_value(decl(CMDBENCH_PARAM_BOOL), int64_t{1}).error() ==
          std::string("expected a boolean, got an integer"));
    CHECK(check_value(decl(99), true).error() == std::string("unknown parameter type 99"));
}

TEST_CASE("type names and range text for help") {
    CHECK(std::string(type_name(CMDBENCH_PARAM_BOOL)) == "bool");
    CHECK(std::string(type_name(CMDBENCH_PARAM_INT)) == "int");
    CHECK(std::string(type_name(CMDBENCH_PARAM_DOUBLE)) == "float");
    CHECK(std::string(type_name(CMDBENCH_PARAM_STRING)) == "string");
    CHECK(std::string(type_name(CMDBENCH_PARAM_INT_LIST)) == "int list");
    CHECK(std::string(type_name(0)) == "unknown");

    CHECK(range_text(int_decl(1, 65535)) == "[1, 65535]");
    CHECK(range_text(int_decl(1, 8, CMDBENCH_PARAM_INT_LIST)) == "[1, 8]");
    CHECK(range_text(double_decl(0.5, 100)) == "[0.5, 100]");
    CHECK(range_text(string_decl("a|b|c")) == "one of a|b|c");
    CHECK(range_text(string_decl()) == "");
    CHECK(range_text(decl(CMDBENCH_PARAM_BOOL)) == "");
}
