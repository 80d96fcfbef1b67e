// The Markdown reporter: the text table's columns and cells as a GitHub
// table, cells escaped so a run's name cannot break a row or carry HTML, and
// the comparison as tables per group.
#include "cmdbench/plugin.h"
#include "cmdbench/report/compare/comparison.hpp"
#include "cmdbench/report/old_metric_names.hpp"
#include "cmdbench/report/output_format.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/verdict.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

using namespace cmdbench;

namespace {

Row lat_row(const std::string &name, double size, uint64_t p50_ns) {
    Row r;
    r.name = name;
    r.metrics = {{"bytes", size, CMDBENCH_UNIT_BYTES},
                 {"Gb/sec", size / 1000, CMDBENCH_UNIT_GBPS},
                 {"rate", 12345, CMDBENCH_UNIT_PER_SEC}};
    HistSummary h;
    h.count = 1000;
    h.min = p50_ns / 2;
    h.p50 = h.p90 = h.p99 = h.p999 = p50_ns;
    h.max = p50_ns * 2;
    r.hists = {{"rtt", h}};
    give_old_name_meanings(r); // as the host reads a plugin's rows
    return r;
}

RunResult run_of(const std::string &name, const std::string &variant, uint64_t p50_ns) {
    RunResult r;
    r.name = name;
    r.test = "pingpong";
    r.transport = variant;
    r.group = "pingpong";
    r.variant = variant;
    r.rows = {lat_row("64_lat", 64, p50_ns), lat_row("4k_lat", 4096, p50_ns * 2)};
    return r;
}

std::string markdown_of(const Report &report) {
    std::ostringstream out;
    format_named("markdown").make()->finish(out, report, nullptr);
    return out.str();
}

std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// A table line's cells: split at the `|`s no backslash escapes.
std::vector<std::string> cells_of(const std::string &line) {
    std::vector<std::string> cells;
    std::string cell;
    for (size_t i = 1; i < line.size(); ++i) {
        if (line[i] == '\\' && i + 1 < line.size()) {
            cell += line.substr(i, 2);
            ++i;
        } else if (line[i] == '|') {
            cells.push_back(cell.substr(1, cell.size() - 2)); // the padding spaces
            cell.clear();
        } else {
            cell += line[i];
        }
    }
    return cells;
}

std::vector<std::string> words_of(const std::string &line) {
    std::vector<std::string> words;
    std::istringstream in(line);
    for (std::string w; in >> w;)
        words.push_back(w);
    return words;
}

} // namespace

TEST_CASE("markdown: registered for stdout, -o *.md and compare") {
    const OutputFormat &f = format_named("markdown");
    CHECK(std::string(format_of_path("results.md").name) == "markdown");
    CHECK(std::string(format_of_path("results.markdown").name) == "markdown");
    CHECK(&parse_output_format("markdown", formats_for(kUseStdout)) == &f);
    CHECK(&parse_output_format("markdown", formats_for(kUseCompare)) == &f);
    CHECK((f.uses & kUseFile) != 0);
    CHECK(file_formats_text().find("Markdown for *.md") != std::string::npos);
}

TEST_CASE("markdown: the text table's column names and cells, one table per run") {
    Report report;
    report.runs = {run_of("pp/tcp", "tcp", 20000)};
    std::ostringstream text;
    write_table(text, report);
    const auto text_lines = lines_of(text.str());
    REQUIRE(text_lines.size() >= 4);
    const auto text_header = words_of(text_lines[1]);
    const auto text_row = words_of(text_lines[2]);

    const auto lines = lines_of(markdown_of(report));
    REQUIRE(lines.size() >= 5);
    CHECK(lines[0] == "### pp/tcp: test=pingpong transport=tcp");
    CHECK(lines[1].empty());
    CHECK(cells_of(lines[2]) == text_header);
    const auto align = cells_of(lines[3]);
    REQUIRE(align.size() == text_header.size());
    CHECK(align[0] == ":---"); // the name, left
    CHECK(align[1] == "---:"); // figures, right
    CHECK(cells_of(lines[4]) == text_row);
    // Units as the text table gives them: one-way latency in microseconds.
    CHECK(std::find(text_header.begin(), text_header.end(), "p50(us,1-way)") != text_header.end());
}

TEST_CASE("markdown: a | or a line break in a name cannot break the table, no HTML passes") {
    Report report;
    RunResult run = run_of("evil|name\n<script>alert(1)</script>", "tcp", 20000);
    run.rows[0].name = "64|lat\n| x |";
    run.rows[1].name = "<b>4k</b> & `code` *em*";
    report.runs = {run};
    const std::string md = markdown_of(report);
    CHECK(md.find("<script>") == std::string::npos);
    CHECK(md.find("<b>") == std::string::npos);
    CHECK(md.find("&lt;b&gt;4k&lt;/b&gt; &amp; \\`code\\` \\*em\\*") != std::string::npos);
    const auto lines = lines_of(md);
    REQUIRE(lines.size() >= 6);
    // The line break shows as printable_text's escape, its backslash escaped.
    CHECK(lines[0].find("evil\\|name\\\\x0a&lt;script&gt;") != std::string::npos);
    const size_t columns = cells_of(lines[2]).size();
    for (size_t i = 2; i < 6; ++i) {
        CAPTURE(lines[i]);
        CHECK(cells_of(lines[i]).size() == columns);
    }
    CHECK(cells_of(lines[4])[0] == "64\\|lat\\\\x0a\\| x \\|");
}

TEST_CASE("markdown: the comparison, a table per group with the text table's columns") {
    Report a, b;
    a.runs = {run_of("pp/tcp", "tcp", 20000)};
    b.runs = {run_of("pp/rdma", "rdma", 5000)};
    a.baseline = "tcp";
    const Comparison c = build_comparison({&a, &b}, CompareOptions{});
    std::ostringstream out;
    format_named("markdown").make()->finish_comparison(out, c, {&a, &b}, {});
    const auto lines = lines_of(out.str());
    INFO(out.str());
    REQUIRE(lines.size() >= 6);
    CHECK(lines[0].rfind("## comparison (baseline ", 0) == 0);
    const auto header = std::find(lines.begin(), lines.end(), "### pingpong");
    REQUIRE(header != lines.end());
    REQUIRE(header + 2 < lines.end());
    const auto cells = cells_of(*(header + 2));
    REQUIRE(cells.size() >= 3);
    CHECK(cells[0] == "item");
    CHECK(cells[1] == "metric");
    CHECK(cells[2] == "unit");
}
