// One parser of --format for every command, one rule for the -o file's
// format, and one exit-status rule for `run` alone and as a matrix job.
#include "cmdbench/host/run/exit_status.hpp"
#include "cmdbench/report/output_format.hpp"

#include <catch2/catch.hpp>
#include <stdexcept>

using namespace cmdbench;

TEST_CASE("format option: the command's formats only, with the allowed ones in the error") {
    const std::vector<OutputFormat> run = {OutputFormat::Table, OutputFormat::Json,
                                           OutputFormat::Csv};
    const std::vector<OutputFormat> compare = {OutputFormat::Table, OutputFormat::Json};
    CHECK(parse_output_format("csv", run) == OutputFormat::Csv);
    CHECK(parse_output_format("json", compare) == OutputFormat::Json);
    CHECK_THROWS_WITH(parse_output_format("csv", compare),
                      "--format must be one of table, json (got 'csv')");
    CHECK_THROWS_WITH(parse_output_format("JSON", run),
                      "--format must be one of table, json, csv (got 'JSON')");
    CHECK_THROWS_AS(parse_output_format("", run), std::invalid_argument);
}

TEST_CASE("the -o file: JSON for .json, CSV for .csv, the table for anything else") {
    CHECK(format_of_path("out.json") == OutputFormat::Json);
    CHECK(format_of_path("/tmp/a.b.csv") == OutputFormat::Csv);
    CHECK(format_of_path("results.txt") == OutputFormat::Table);
    CHECK(format_of_path("json") == OutputFormat::Table);
    CHECK(format_of_path("/dev/stdout") == OutputFormat::Table);
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
