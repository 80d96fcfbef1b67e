// std::string::ends_with arrives with C++20; this project is C++17.
#pragma once
#include <string>

namespace cmdbench {

inline bool ends_with(const std::string &s, const std::string &suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace cmdbench
