#include "cmdbench/report/output_format.hpp"

#include "results/string_suffix.hpp"

#include <stdexcept>

namespace cmdbench {

const char *to_string(OutputFormat f) {
    switch (f) {
    case OutputFormat::Table:
        return "table";
    case OutputFormat::Json:
        return "json";
    case OutputFormat::Csv:
        return "csv";
    }
    return "table";
}

OutputFormat parse_output_format(const std::string &name,
                                 const std::vector<OutputFormat> &allowed) {
    std::string names;
    for (OutputFormat f : allowed) {
        if (name == to_string(f)) return f;
        names += std::string(names.empty() ? "" : ", ") + to_string(f);
    }
    throw std::invalid_argument("--format must be one of " + names + " (got '" + name + "')");
}

OutputFormat format_of_path(const std::string &path) {
    if (ends_with(path, ".json")) return OutputFormat::Json;
    if (ends_with(path, ".csv")) return OutputFormat::Csv;
    return OutputFormat::Table;
}

} // namespace cmdbench
