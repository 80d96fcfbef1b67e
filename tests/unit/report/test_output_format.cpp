// One parser of --format for every command, one rule for the -o file's
// format (all from the format registry), and one exit-status rule for `run`
// alone and as a matrix job.
#include "cmdbench/host/run/exit_status.hpp"
#include "cmdbench/report/output_format.hpp"

#include <catch2/catch.hpp>
#include <stdexcept>

using namespace cmdbench;

TEST_CASE("format option: the command's formats only, with the allowed ones in the error") {
    const FormatRef table = &format_named("table"), json = &format_named("json"),
                    csv = &format_named("csv");
    const std::vector<FormatRef> run = {table, json, csv};
    const std::vector<FormatRef> compare = {table, json};
    CHECK(&parse_output_format("csv", run) == csv);
    CHECK(&parse_output_format("json", compare) == json);
    CHECK_THROWS_WITH(parse_output_format("csv", compare),
                      "--format must be one of table, json (got 'csv')");
    CHECK_THROWS_WITH(parse_output_format("JSON", run),
                      "--format must be one of table, json, csv (got 'JSON')");
    CHECK_THROWS_AS(parse_output_format("", run), std::invalid_argument);
}

TEST_CASE("the -o file: JSON for .json, CSV for .csv, the table for anything else") {
    CHECK(std::string(format_of_path("out.json").name) == "json");
    CHECK(std::string(format_of_path("/tmp/a.b.csv").name) == "csv");
    CHECK(std::string(format_of_path("results.txt").name) == "table");
    CHECK(std::string(format_of_path("json").name) == "table");
    CHECK(std::string(format_of_path("/dev/stdout").name) == "table");
}

TEST_CASE("the registry: each command's formats, and help text from the same list") {
    CHECK(format_names(formats_for(kUseCompare), ", ", ", ").rfind("table, json", 0) == 0);
    CHECK(format_names(formats_for(kUseSummary)) == "table or json");
    CHECK(format_names(formats_for(kUseSummary), "|", "|") == "table|json");
    CHECK(format_names(formats_for(kUsePage)) == "html");
    CHECK(file_formats_text().rfind("JSON for *.json, CSV for *.csv, ", 0) == 0);
    for (const OutputFormat &f : output_formats()) {
        CAPTURE(f.name);
        CHECK(f.make() != nullptr);
        // A file format is chosen by the file's name, or it is the default.
        if ((f.uses & kUseFile) && std::string(f.name) != "table") CHECK(!f.extensions.empty());
    }
    CHECK(&parse_output_format("html", formats_for(kUsePage)) == &format_named("html"));
    CHECK_THROWS_WITH(parse_output_format("html", formats_for(kUseStdout)),
                      Catch::Contains("--format must be one of table, json, csv"));
}

namespace {

Report with(std::vector<RunStatus> statuses) {
    Report r;
    for (RunStatus s : statuses) {
        RunResult run;
        run.status = s;
        r.runs.push_back(run);
    }
    return r;
}

} // namespace

TEST_CASE("exit status: interrupted, failed, skipped, unwritten, in that order") {
    CHECK(exit_status(with({RunStatus::Ok}), {}) == kExitOk);
    CHECK(exit_status(with({RunStatus::Ok, RunStatus::Failed}), {true}) == kExitInterrupted);
    CHECK(exit_status(with({RunStatus::Ok, RunStatus::TimedOut}), {}) == kExitRunFailed);
    CHECK(exit_status(with({RunStatus::Skipped}), {}) == kExitRunFailed);
    RunEnding allow;
    allow.allow_skip = true;
    CHECK(exit_status(with({RunStatus::Skipped}), allow) == kExitOk);
    allow.write_failed = true;
    CHECK(exit_status(with({RunStatus::Ok}), allow) == kExitRunFailed);
    CHECK(exit_status(with({}), {}) == kExitOk);
}
