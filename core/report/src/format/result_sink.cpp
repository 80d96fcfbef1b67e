#include "cmdbench/report/result_sink.hpp"

#include "cmdbench/report/output_file.hpp"
#include "cmdbench/report/pair_scaling.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/verdict.hpp"
#include "compare/comparison_samples.hpp"
#include "format/printable_lines.hpp"

#include <cstdio>
#include <iostream>
#include <map>
#include <set>

namespace cmdbench {
namespace {

// A comparison table is worth printing once some group ran as two variants.
bool compares_variants(const Report &report) {
    std::map<std::string, std::set<std::string>> variants;
    bool several = false;
    for_each_run(report, [&](const RunResult &run) {
        auto &seen = variants[run_group(run)];
        seen.insert(run_variant(run));
        several = several || seen.size() > 1;
    });
    return several;
}

} // namespace

ResultSink::ResultSink(FormatRef stdout_format, std::string output_file, std::string report_file)
    : format_(*stdout_format), stdout_(format_.make()), file_(std::move(output_file)),
      report_file_(std::move(report_file)) {}

void ResultSink::write_file(const Report &report, bool final, const Comparison *comparison) {
    if (file_.empty()) return;
    // Stdout, a FIFO or a device cannot be replaced, only appended to: they
    // get the final document alone, so their reader sees one whole document.
    if (!final && output_is_stream(file_)) return;
    write_to(file_, [&](std::ostream &out) {
        write_report(out, format_of_path(file_), report, comparison);
    });
}

void ResultSink::write_to(const std::string &path, const DocumentWriter &produce) {
    const Status written = write_output(path, produce);
    if (written.ok()) return;
    write_failed_ = true;
    const std::string message = "cmdbench: cannot write " + path + ": " + written.error();
    if (message != last_error_) std::fprintf(stderr, "%s\n", message.c_str());
    last_error_ = message;
}

void ResultSink::run_done(const Report &report) {
    if (format_.streams_runs && !report.runs.empty()) {
        stdout_->run_done(std::cout, report.runs.back());
        std::cout.flush();
    }
    write_interim(report);
}

void ResultSink::matrix_run_done(const Report &report, const std::string &run) {
    if (!format_.streams_runs) return;
    matrix_table_.run_done(std::cout, report, run);
    std::cout.flush();
}

void ResultSink::write_interim(const Report &report) {
    write_file(report, false, nullptr);
}

void ResultSink::finish(const Report &report) {
    // The comparison is built once, at the end: after every run it would
    // cost time quadratic in the runs. A matrix job's comparison is the
    // matrix itself.
    const bool matrix = report.matrix.has_value();
    const bool table = format_.streams_runs && !matrix && compares_variants(report);
    const bool json =
        format_.embeds_comparison || (!file_.empty() && format_of_path(file_).embeds_comparison);
    std::optional<Comparison> comparison;
    if (!matrix && (table || json || !report_file_.empty())) comparison = compare(report);
    const Comparison *final = comparison ? &*comparison : nullptr;
    // A table stdout printed each run as it ended; a matrix's, each run's
    // matrices as the run ended (matrix_run_done), and here the rest.
    if (format_.streams_runs && matrix) {
        matrix_table_.finish(std::cout, report);
        std::cout.flush();
    } else if (!format_.streams_runs) {
        write_report(std::cout, format_, report, final);
        std::cout.flush();
    }
    write_file(report, true, final);
    if (format_.streams_runs && !matrix) {
        PrintableLines text(std::cout);
        write_scaling_table(text, pair_scaling(report));
    }
    if (table && comparison) {
        std::cout << '\n';
        PrintableLines text(std::cout);
        write_comparison_table(text, *comparison);
    }
    write_html(report, final);
    // The verdicts close the table output; JSON carries them itself. A
    // matrix's table ends with their summary and worst links instead: one
    // line per link would be a million lines at a thousand nodes (the JSON
    // has every verdict).
    if (format_.streams_runs && !matrix) {
        const auto verdicts = evaluate_expectations(report);
        if (!verdicts.empty()) {
            std::cout << '\n';
            PrintableLines text(std::cout);
            write_verdicts_table(text, verdicts);
        }
    }
    std::cout.flush();
    if (!std::cout) {
        write_failed_ = true;
        std::fprintf(stderr, "cmdbench: cannot write the results to standard output\n");
    }
}

void ResultSink::write_html(const Report &report, const Comparison *comparison) {
    if (report_file_.empty()) return;
    if (!report.matrix && !comparison) return; // the comparison failed, and said why
    write_to(report_file_, [&](std::ostream &page) {
        reporter_for(format_named("html"), report)->finish(page, report, comparison);
    });
}

std::optional<Comparison> ResultSink::compare(const Report &report) const {
    try {
        return build_comparison({&report}, CompareOptions{});
    } catch (const std::exception &e) {
        std::fprintf(stderr, "cmdbench: comparison: %s\n", e.what());
        return std::nullopt;
    }
}

} // namespace cmdbench
