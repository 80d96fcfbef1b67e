// libFuzzer target: the results reader behind `cmdbench compare` on
// arbitrary text. Only ResultsError may escape parse_results: a number out
// of range, deep nesting or a mistyped field is a message, never an abort.
#include "cmdbench/report/results_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    try {
        cmdbench::parse_results(std::string(reinterpret_cast<const char *>(data), size),
                                "fuzz.json");
    } catch (const cmdbench::ResultsError &) {
    }
    return 0;
}
