// End to end: names a scenario chose (runs, variants) reach the console table,
// the comparison, the verdicts and `cmdbench compare` with every control
// character made visible, so a name cannot retitle the window, move the
// cursor or clear the screen of whoever reads the output.
#include "process.hpp"

#include <catch2/catch.hpp>
#include <fstream>

namespace {

// A title sequence (OSC ... BEL), a clear-screen code and a colour, in
// TOML's own escapes.
const char *kHostile = R"(A\u001b]0;owned\u0007\u001b[2J\u009bB)";

std::string scenario(const std::string &dir) {
    std::string toml;
    for (const char *variant : {"one", "two"})
        toml += std::string("[[run]]\nname = \"") + kHostile + "\"\nvariant = \"" + variant +
                "\\u001b[31m\"\ntest = \"pingpong\"\ntransport = \"tcp\"\nsizes = [64]\n"
                "iterations = 100\nexpect = { latency_p99 = { max = 1000000 } }\n";
    const std::string path = dir + "/hostile.toml";
    std::ofstream(path) << toml;
    return path;
}

// Where the first byte a terminal acts on (other than a line end) is, or npos.
size_t first_control(const std::string &text) {
    for (size_t i = 0; i < text.size(); ++i) {
        const unsigned char u = static_cast<unsigned char>(text[i]);
        if ((u < 0x20 && u != '\n') || u == 0x7f) return i;
    }
    return std::string::npos;
}

// The hostile name as it must be shown: each control as a visible escape.
bool shows_name(const std::string &text) {
    return text.find("A\\x1b]0;owned\\x07\\x1b[2J\\xc2\\x9bB") != std::string::npos;
}

} // namespace

TEST_CASE("run and compare print chosen names with control characters made visible") {
    const std::string dir = temp_dir();
    const std::string results = dir + "/hostile.json";
    const auto r = run_process({cmdbench_exe(), "run", scenario(dir), "-o", results});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    // Each run's table, the comparison of the two variants, the verdicts.
    INFO(r.out);
    CHECK(r.out.find("expectations:") != std::string::npos);
    CHECK(shows_name(r.out));
    CHECK(first_control(r.out) == std::string::npos);
    CHECK(first_control(r.err) == std::string::npos);
    const auto c = run_process({cmdbench_exe(), "compare", results});
    INFO(c.out << c.err);
    REQUIRE(c.exit_code == 0);
    CHECK(shows_name(c.out));
    CHECK(first_control(c.out) == std::string::npos);
}
