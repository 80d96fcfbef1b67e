// The registry of output formats: each format's name, the -o file endings it
// is chosen by, where it may go, and its reporter. Every command's --format
// list, the help text naming them and the -o file's format come from here
// (`run --format`, `compare --format`, `job --format`, cmtime's `--format`).
#pragma once
#include "cmdbench/report/reporter.hpp"

#include <memory>
#include <string>
#include <vector>

namespace cmdbench {

// Where a format may go, a bit each.
enum FormatUse : unsigned {
    kUseStdout = 1u << 0,  // `run --format`
    kUseFile = 1u << 1,    // `run -o FILE`, chosen by FILE's ending
    kUseCompare = 1u << 2, // `compare --format`
    kUsePage = 1u << 3,    // `--report FILE`: the web page
    kUseSummary = 1u << 4, // a command's own small document (job's ranks, cmtime's figures)
};

struct OutputFormat {
    const char *name;                    // as --format takes it
    const char *title;                   // as help text names it: "JSON for *.json"
    std::vector<std::string> extensions; // -o FILE endings, ".json"; none: not by name
    unsigned uses;                       // FormatUse bits
    // On stdout: each run printed as it ends, then the comparison and the
    // verdicts as tables (the console table).
    bool streams_runs;
    // The final document carries the comparison of the variants (JSON).
    bool embeds_comparison;
    std::unique_ptr<Reporter> (*make)();
    // A matrix job's form (docs/matrix.md); nullptr: `make`'s reporter writes
    // a matrix report like any other (JSON and CSV carry `matrix` and `pair`).
    std::unique_ptr<Reporter> (*make_matrix)();
};

// A format chosen (by --format): an entry of the registry.
using FormatRef = const OutputFormat *;

// Every format, in the order help text and error messages list them.
const std::vector<OutputFormat> &output_formats();

// The formats with every bit of `uses`.
std::vector<const OutputFormat *> formats_for(unsigned uses);

// "table, json or csv": the names, for help text; `sep` between all but the
// last two, `last` before the last one.
std::string format_names(const std::vector<const OutputFormat *> &formats, const char *sep = ", ",
                         const char *last = " or ");

// "JSON for *.json, CSV for *.csv, else a table": what -o writes, by name.
std::string file_formats_text();

// The format named `name` if it is one of `allowed`; else throws
// std::invalid_argument("--format must be one of table, json (got 'x')").
const OutputFormat &parse_output_format(const std::string &name,
                                        const std::vector<const OutputFormat *> &allowed);

// The registered format called `name` (a program error if there is none).
const OutputFormat &format_named(const std::string &name);

// The format `-o PATH` writes: the file format whose ending PATH has, else
// the table.
const OutputFormat &format_of_path(const std::string &path);

// The reporter of `format` for `report`: its matrix form for a matrix job's.
std::unique_ptr<Reporter> reporter_for(const OutputFormat &format, const Report &report);

} // namespace cmdbench
