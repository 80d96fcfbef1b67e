#include "cmdbench/host/machine/sysfs_files.hpp"

#include "cmdbench/report/path_context.hpp"

#include <algorithm>
#include <fstream>

namespace cmdbench {

std::string first_line(const std::filesystem::path &file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    return line;
}

std::string value_or_unknown(const std::filesystem::path &file) {
    std::ifstream in(file);
    std::string line;
    if (!in || !std::getline(in, line)) return kUnknown;
    const auto first = line.find_first_not_of(" \t");
    const auto last = line.find_last_not_of(" \t\r\n");
    if (first == std::string::npos || last == std::string::npos) return kUnknown;
    return line.substr(first, last - first + 1);
}

std::vector<std::string> dir_entries(const std::filesystem::path &dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<std::string> numbered_entries(const std::filesystem::path &dir) {
    std::vector<std::string> names = dir_entries(dir);
    names.erase(std::remove_if(names.begin(), names.end(),
                               [](const std::string &n) {
                                   return n.empty() || n.size() > 9 ||
                                          n.find_first_not_of("0123456789") != std::string::npos;
                               }),
                names.end());
    std::stable_sort(names.begin(), names.end(), [](const std::string &a, const std::string &b) {
        return a.size() < b.size(); // sorted as text already: by length is by number
    });
    return names;
}

} // namespace cmdbench
