// The formats results are printed and written in, parsed in one place for
// every command (`run --format`, `compare --format`, `job --format`, the
// cmtime front end's `--format`) and chosen for `-o FILE` by its name.
#pragma once
#include <string>
#include <vector>

namespace cmdbench {

enum class OutputFormat { Table, Json, Csv };

const char *to_string(OutputFormat f);

// `name` ("table", "json", "csv") if it is one of `allowed`; else throws
// std::invalid_argument("--format must be one of table, json (got 'x')").
OutputFormat parse_output_format(const std::string &name, const std::vector<OutputFormat> &allowed);

// The format `-o PATH` writes: JSON for *.json, CSV for *.csv, else the table.
OutputFormat format_of_path(const std::string &path);

} // namespace cmdbench
