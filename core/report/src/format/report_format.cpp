#include "cmdbench/report/report_format.hpp"

#include "cmdbench/plugin.h"
#include "cmdbench/report/report.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>

namespace cmdbench {
namespace {

// Reporters take doubles; the rstream rules work on whole numbers.
long long whole(double v) {
    if (!(v > 0)) return v < 0 && v > -9.2e18 ? static_cast<long long>(v) : 0;
    return v >= 9.2e18 ? 9200000000000000000LL : static_cast<long long>(v);
}

} // namespace

std::string size_str(double bytes) {
    const long long size = whole(bytes);
    long long base = 1;
    const char *mag = "";
    if (size >= (1LL << 30)) {
        base = 1LL << 30;
        mag = "g";
    } else if (size >= (1LL << 20)) {
        base = 1LL << 20;
        mag = "m";
    } else if (size >= (1LL << 10)) {
        base = 1LL << 10;
        mag = "k";
    }
    const long long units = size / base;
    const long long tenth = units < 10 ? (size % base) * 10 / base : 0;
    std::string out = std::to_string(units);
    if (tenth != 0) out += "." + std::to_string(tenth);
    return out + mag;
}

std::string count_str(double count) {
    const long long n = whole(count);
    if (n >= 1000000000LL) return std::to_string(n / 1000000000LL) + "b";
    if (n >= 1000000LL) return std::to_string(n / 1000000LL) + "m";
    if (n >= 1000LL) return std::to_string(n / 1000LL) + "k";
    return std::to_string(n);
}

std::string fixed_str(double v, int decimals) {
    char buf[64];
    const int n = std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    if (n < 0 || n >= static_cast<int>(sizeof buf)) return std::to_string(v);
    return buf;
}

std::string exact_str(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    // Plain notation for the usual magnitudes (100000, not 1e+05); exponent
    // form only for the extremes, where plain digits would run long.
    const double a = std::fabs(v);
    const auto format =
        a == 0 || (a >= 1e-6 && a < 1e17) ? std::chars_format::fixed : std::chars_format::general;
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, format);
    return std::string(buf, r.ptr);
}

std::string significant_str(double v, int digits) {
    if (!std::isfinite(v)) return exact_str(v);
    const double a = std::fabs(v);
    if (a == 0) return "0";
    // Decimals for `digits` significant ones, never dropping whole digits.
    const int whole_digits = int(std::floor(std::log10(a))) + 1;
    return fixed_str(v, std::max(0, digits - whole_digits));
}

namespace {

// 4.00Ki reads as 4Ki, 10.0k as 10k: round figures are common.
std::string trimmed(std::string text) {
    if (text.find('.') == std::string::npos) return text;
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
    return text;
}

} // namespace

std::string decimal_str(double v) {
    if (!std::isfinite(v)) return exact_str(v);
    const double a = std::fabs(v);
    if (a < 1e4) return a == std::floor(a) ? fixed_str(v, 0) : significant_str(v, 3);
    static const char *const suffix[] = {"k", "M", "G", "T"};
    double scaled = v / 1e3;
    size_t i = 0;
    // Rounding may carry into the next power (999.6k is 1M).
    while (i + 1 < std::size(suffix) && std::fabs(std::stod(significant_str(scaled, 3))) >= 1000) {
        scaled = std::stod(significant_str(scaled, 3)) / 1e3;
        ++i;
    }
    return trimmed(significant_str(scaled, 3)) + suffix[i];
}

std::string binary_str(double bytes) {
    if (!std::isfinite(bytes)) return exact_str(bytes);
    if (std::fabs(bytes) < 1024) return fixed_str(bytes, 0);
    static const char *const suffix[] = {"Ki", "Mi", "Gi", "Ti", "Pi"};
    double scaled = bytes / 1024;
    size_t i = 0;
    while (i + 1 < std::size(suffix) && std::fabs(std::stod(significant_str(scaled, 3))) >= 1024) {
        scaled = std::stod(significant_str(scaled, 3)) / 1024;
        ++i;
    }
    return trimmed(significant_str(scaled, 3)) + suffix[i];
}

std::string per_sec_str(double v) {
    return decimal_str(v);
}

std::string small_str(double v) {
    if (!std::isfinite(v)) return exact_str(v);
    return std::fabs(v) >= 0.1 ? fixed_str(v, 2) : significant_str(v, 2);
}

std::string ns_as_us_str(double ns) {
    return small_str(ns / 1000.0);
}

std::string metric_cell(double value, uint32_t unit) {
    switch (unit) {
    case CMDBENCH_UNIT_BYTES:
        return binary_str(value);
    case CMDBENCH_UNIT_COUNT:
        return decimal_str(value);
    case CMDBENCH_UNIT_SECONDS:
        return small_str(value) + "s";
    case CMDBENCH_UNIT_USEC:
    case CMDBENCH_UNIT_GBPS:
        return small_str(value);
    case CMDBENCH_UNIT_PER_SEC:
        return per_sec_str(value);
    default:
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", value);
        return buf;
    }
}

const char *unit_label(uint32_t unit) {
    switch (unit) {
    case CMDBENCH_UNIT_BYTES:
        return "bytes";
    case CMDBENCH_UNIT_COUNT:
        return "count";
    case CMDBENCH_UNIT_SECONDS:
        return "s";
    case CMDBENCH_UNIT_USEC:
        return "us";
    case CMDBENCH_UNIT_GBPS:
        return "Gb/s";
    case CMDBENCH_UNIT_PER_SEC:
        return "1/s";
    default:
        return "";
    }
}

} // namespace cmdbench
