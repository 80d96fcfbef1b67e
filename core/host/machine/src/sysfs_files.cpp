#include "cmdbench/host/machine/sysfs_files.hpp"

#include <algorithm>
#include <fstream>

namespace cmdbench {

std::string first_line(const std::filesystem::path &file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    return line;
}

std::vector<std::string> dir_entries(const std::filesystem::path &dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace cmdbench
