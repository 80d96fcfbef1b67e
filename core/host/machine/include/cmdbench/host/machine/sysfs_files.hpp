// Reading sysfs and procfs the same way everywhere: a file's first line, a
// directory's entries in a stable order.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace cmdbench {

// The first line of `file`, as written; "" when it cannot be read.
std::string first_line(const std::filesystem::path &file);

// The first line of `file`, trimmed; "unknown" when it cannot be read or is
// empty (virtual devices refuse `speed` with EINVAL, an unused GID entry
// its type and netdev).
std::string value_or_unknown(const std::filesystem::path &file);

// The names in `dir`, sorted, so the first match is the same on every
// call; empty when it cannot be read.
std::vector<std::string> dir_entries(const std::filesystem::path &dir);

// The names in `dir` that are numbers (ports, GID indexes), in numeric order.
std::vector<std::string> numbered_entries(const std::filesystem::path &dir);

} // namespace cmdbench
