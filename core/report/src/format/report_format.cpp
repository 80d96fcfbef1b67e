#include "cmdbench/report/report_format.hpp"

#include "cmdbench/plugin.h"
#include "cmdbench/report/report.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

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

std::string per_sec_str(double v) {
    if (!std::isfinite(v)) return exact_str(v);
    const double a = std::fabs(v);
    if (a < 1e4) return fixed_str(v, 0);
    if (a < 1e6) return fixed_str(v / 1e3, 1) + "k";
    return fixed_str(v / 1e6, 2) + "m";
}

std::string ns_as_us_str(double ns) {
    return fixed_str(ns / 1000.0, 2);
}

std::string metric_cell(double value, uint32_t unit) {
    switch (unit) {
    case CMDBENCH_UNIT_BYTES:
        return size_str(value);
    case CMDBENCH_UNIT_COUNT:
        return count_str(value);
    case CMDBENCH_UNIT_SECONDS:
        return fixed_str(value, 2) + "s";
    case CMDBENCH_UNIT_USEC:
    case CMDBENCH_UNIT_GBPS:
        return fixed_str(value, 2);
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
