// libFuzzer target: the results reader behind `cmdbench compare` on
// arbitrary text. Only ResultsError may escape parse_results: a number out
// of range, deep nesting or a mistyped field is a message, never an abort.
// A document that reads keeps its runs' expectations whole: each run's
// `expect` written back is the value the file held (a bound dropped or
// garbled on the way would judge something else than the file says).
#include "cmdbench/report/results_reader.hpp"
#include "cmdbench/report/verdict.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

namespace {

void check_expectations(const std::string &text, const cmdbench::Report &report) {
    // Parsed again, unordered: the order of keys is not what is checked.
    const nlohmann::json doc = nlohmann::json::parse(text);
    const nlohmann::json &runs = doc.at("runs");
    for (size_t i = 0; i < report.runs.size(); ++i) {
        const nlohmann::json &run = runs.at(i);
        const nlohmann::json written = cmdbench::expectations_json(report.runs[i].expect);
        if (run.contains("expect") ? written != run.at("expect") : !written.empty()) std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    try {
        check_expectations(text, cmdbench::parse_results(text, "fuzz.json"));
    } catch (const cmdbench::ResultsError &) {
    }
    return 0;
}
