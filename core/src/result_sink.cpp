#include "result_sink.hpp"

#include "comparison.hpp"
#include "comparison_samples.hpp"
#include "report.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

namespace cmdbench {
namespace {

bool ends_with(const std::string &s, const std::string &suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void write_as(std::ostream &out, const std::string &format, const Report &report) {
    if (format == "json")
        write_json(out, report);
    else if (format == "csv")
        write_csv(out, report);
    else
        write_table(out, report);
}

// A comparison table is worth printing once some group ran as two variants.
bool compares_variants(const Report &report) {
    std::map<std::string, std::set<std::string>> variants;
    for (const auto &run : report.runs) {
        auto &seen = variants[run_group(run)];
        seen.insert(run_variant(run));
        if (seen.size() > 1) return true;
    }
    return false;
}

} // namespace

ResultSink::ResultSink(std::string stdout_format, std::string output_file, std::string report_file)
    : format_(std::move(stdout_format)), file_(std::move(output_file)),
      report_file_(std::move(report_file)) {}

void ResultSink::write_file(const Report &report) const {
    if (file_.empty()) return;
    std::string format = ends_with(file_, ".json")  ? "json"
                         : ends_with(file_, ".csv") ? "csv"
                                                    : "table";
    // Write a temporary file and rename it, so readers never see half a file.
    std::string tmp = file_ + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        if (!out) {
            std::fprintf(stderr, "cmdbench: cannot write %s\n", tmp.c_str());
            return;
        }
        write_as(out, format, report);
    }
    if (std::rename(tmp.c_str(), file_.c_str()) != 0)
        std::fprintf(stderr, "cmdbench: cannot write %s\n", file_.c_str());
}

void ResultSink::run_done(const Report &report) {
    if (format_ == "table" && !report.runs.empty()) {
        write_table_run(std::cout, report.runs.back());
        std::cout.flush();
    }
    write_file(report);
}

void ResultSink::finish(const Report &report) {
    if (format_ != "table") {
        write_as(std::cout, format_, report);
        std::cout.flush();
    }
    write_file(report);
    write_comparison(report);
}

void ResultSink::write_comparison(const Report &report) const {
    const bool table = format_ == "table" && compares_variants(report);
    if (!table && report_file_.empty()) return;
    try {
        const Comparison c = build_comparison({&report}, CompareOptions{});
        if (table) {
            std::cout << '\n';
            write_comparison_table(std::cout, c);
            std::cout.flush();
        }
        if (report_file_.empty()) return;
        std::ofstream out(report_file_, std::ios::trunc);
        if (out) write_html_report(out, c, {&report});
        if (!out) std::fprintf(stderr, "cmdbench: cannot write %s\n", report_file_.c_str());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "cmdbench: comparison: %s\n", e.what());
    }
}

} // namespace cmdbench
