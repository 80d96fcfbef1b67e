// End to end: the Markdown format through the real binary over TCP on
// loopback: `run --format markdown`, `run -o FILE.md` and `compare --format
// markdown`, each a GitHub table with the text table's columns.
#include "process.hpp"

#include <catch2/catch.hpp>
#include <fstream>

namespace {

const std::string &dir() {
    static const std::string d = temp_dir();
    return d;
}

// A run named with a `|`, which must not split its title or a cell.
std::string scenario() {
    const std::string toml = dir() + "/md.toml";
    std::ofstream(toml) << "[[run]]\nname = \"lat|ency\"\ntest = \"pingpong\"\n"
                           "transport = \"tcp\"\nsizes = [64, 4096]\niterations = 500\n"
                           "timeout = 60\n";
    return toml;
}

bool has(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

// The run's title and its table's header and alignment lines.
void check_run_markdown(const std::string &md) {
    CHECK(has(md, "### lat\\|ency: test=pingpong transport=tcp\n"));
    CHECK(has(md, "\n| name | bytes | xfers | iters | total | time | Gb/sec | usec/xfer |"));
    CHECK(has(md, "\n| :--- | ---: | ---: |"));
    CHECK(has(md, "\n| 64_lat | 64 | 1 | 500 |"));
    CHECK(has(md, "\n| 4k_lat | 4Ki | 1 | 500 |"));
}

} // namespace

TEST_CASE("markdown: run --format markdown prints it, -o FILE.md writes it") {
    const std::string toml = scenario();
    const std::string json = dir() + "/md.json", md = dir() + "/md.md";
    ProcessResult r = run_process(
        {cmdbench_exe(), "run", toml, "--quiet", "--format", "markdown", "-o", json}, 180);
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    check_run_markdown(r.out);
    CHECK(!has(r.out, "== lat|ency")); // not the text table
    CHECK(read_file(json).rfind("{", 0) == 0);

    r = run_process({cmdbench_exe(), "run", toml, "--quiet", "-o", md}, 180);
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.out, "== lat|ency: test=pingpong")); // stdout stays the table
    check_run_markdown(read_file(md));

    r = run_process({cmdbench_exe(), "compare", json, json, "--format", "markdown"}, 60);
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.rfind("## comparison (baseline ", 0) == 0);
    CHECK(has(r.out, "\n| item | metric | unit |"));
    CHECK(has(r.out, "\n| :--- | :--- | :--- | ---: |"));
}

TEST_CASE("markdown: named in every list of formats it belongs to") {
    ProcessResult r = run_process({cmdbench_exe(), "run", "--help"});
    CHECK(has(r.out, "markdown"));
    CHECK(has(r.out, "Markdown for *.md"));
    r = run_process({cmdbench_exe(), "compare", "--help"});
    CHECK(has(r.out, "markdown"));
    r = run_process({cmdbench_exe(), "run", scenario(), "--format", "xml"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--format must be one of table, json, csv, markdown (got 'xml')"));
}
