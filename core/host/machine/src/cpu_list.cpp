#include "cmdbench/host/machine/cpu_list.hpp"

#include <cctype>
#include <sstream>

namespace cmdbench {
namespace {

std::string trim(const std::string &s) {
    const size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// A number of at most `max`, else the reason.
Expected<unsigned> number(const std::string &text, const std::string &item, unsigned max) {
    const auto not_a_cpu = [&] {
        return unexpected("'" + item + "' is not a CPU number or range (like 3 or 0-3)");
    };
    if (text.empty()) return not_a_cpu();
    unsigned long v = 0;
    for (char c : text) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return not_a_cpu();
        v = v * 10 + unsigned(c - '0');
        if (v > max) break;
    }
    if (v > max) return unexpected("'" + item + "' goes above " + std::to_string(max));
    return unsigned(v);
}

} // namespace

Expected<std::set<unsigned>> parse_cpu_list(const std::string &text, unsigned max) {
    std::set<unsigned> out;
    if (trim(text).empty()) return unexpected("the list is empty");
    std::stringstream in(text);
    std::string raw;
    while (std::getline(in, raw, ',')) {
        const std::string item = trim(raw);
        if (item.empty()) return unexpected("an item of the list is empty");
        const size_t dash = item.find('-');
        auto first = number(trim(item.substr(0, dash)), item, max);
        if (!first) return unexpected(first.error());
        unsigned lo = *first, hi = lo;
        if (dash != std::string::npos) {
            auto last = number(trim(item.substr(dash + 1)), item, max);
            if (!last) return unexpected(last.error());
            hi = *last;
            if (hi < lo) return unexpected("'" + item + "' runs backwards");
        }
        for (unsigned c = lo; c <= hi; ++c)
            out.insert(c);
    }
    if (!text.empty() && text.back() == ',') return unexpected("an item of the list is empty");
    return out;
}

std::string cpu_list_text(const std::set<unsigned> &cpus) {
    std::string out;
    for (auto it = cpus.begin(); it != cpus.end();) {
        unsigned lo = *it, hi = lo;
        for (++it; it != cpus.end() && *it == hi + 1; ++it)
            hi = *it;
        out += (out.empty() ? "" : ",") + std::to_string(lo);
        if (hi > lo) out += "-" + std::to_string(hi);
    }
    return out;
}

} // namespace cmdbench
