// Every output format, in one list: a new format is its reporter's source
// file and an entry here. Each reporter's file defines its factory.
#include "cmdbench/report/output_format.hpp"

namespace cmdbench {

std::unique_ptr<Reporter> make_table_reporter();
std::unique_ptr<Reporter> make_json_reporter();
std::unique_ptr<Reporter> make_csv_reporter();
std::unique_ptr<Reporter> make_html_reporter();
std::unique_ptr<Reporter> make_matrix_table_reporter();
std::unique_ptr<Reporter> make_matrix_html_reporter();
std::unique_ptr<Reporter> make_markdown_reporter();

const std::vector<OutputFormat> &output_formats() {
    static const std::vector<OutputFormat> formats{
        {"table",
         "a table",
         {},
         kUseStdout | kUseFile | kUseCompare | kUseSummary,
         true,
         false,
         make_table_reporter,
         make_matrix_table_reporter},
        {"json",
         "JSON",
         {".json"},
         kUseStdout | kUseFile | kUseCompare | kUseSummary,
         false,
         true,
         make_json_reporter,
         nullptr},
        {"csv", "CSV", {".csv"}, kUseStdout | kUseFile, false, false, make_csv_reporter, nullptr},
        {"markdown",
         "Markdown",
         {".md", ".markdown"},
         kUseStdout | kUseFile | kUseCompare,
         false,
         false,
         make_markdown_reporter,
         nullptr},
        {"html", "HTML", {}, kUsePage, false, false, make_html_reporter, make_matrix_html_reporter},
    };
    return formats;
}

} // namespace cmdbench
