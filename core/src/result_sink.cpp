#include "result_sink.hpp"

#include "report.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>

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

} // namespace

ResultSink::ResultSink(std::string stdout_format, std::string output_file)
    : format_(std::move(stdout_format)), file_(std::move(output_file)) {}

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
}

} // namespace cmdbench
