// Link rates from sysfs text, and bandwidth as a fraction of them
// (link_rate.hpp).
#include "cmdbench/report/link_rate.hpp"

#include "cmdbench/report/report_format.hpp"
#include "compare/comparison_samples.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace cmdbench {
namespace {

// The number at the start of `text` and what follows it.
std::optional<double> leading_number(const std::string &text, std::string &rest) {
    const char *begin = text.c_str();
    while (*begin == ' ')
        ++begin;
    if (!std::isdigit(static_cast<unsigned char>(*begin))) return std::nullopt;
    char *end = nullptr;
    const double v = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(v) || v <= 0) return std::nullopt;
    rest = end;
    rest.erase(0, rest.find_first_not_of(' '));
    return v;
}

bool starts_with(const std::string &s, const char *prefix) {
    return s.rfind(prefix, 0) == 0;
}

std::optional<LinkRate> side_rate(const SidePath &side) {
    if (side.rdma && !side.devices.empty()) {
        const RdmaDevice &d = side.devices.front();
        if (auto bps = parse_link_rate(d.rate)) return LinkRate{*bps, d.name, d.rate};
        return std::nullopt;
    }
    const NetInterface &i = side.interface;
    if (auto bps = parse_link_rate(i.speed)) return LinkRate{*bps, i.name, i.speed};
    return std::nullopt;
}

} // namespace

std::optional<double> parse_link_rate(const std::string &text) {
    std::string unit;
    const auto v = leading_number(text, unit);
    if (!v) return std::nullopt;
    double scale = 0;
    // sysfs speed is a bare number of Mb/s; link_context.cpp adds " Mb/s".
    if (unit.empty() || starts_with(unit, "Mb/s") || starts_with(unit, "Mb/sec")) scale = 1e6;
    if (starts_with(unit, "Gb/s") || starts_with(unit, "Gb/sec")) scale = 1e9;
    // Compared before scaling: 1e308 Gb/s would scale to infinity.
    if (scale == 0 || *v > kMaxLinkBitsPerSecond / scale) return std::nullopt;
    return *v * scale;
}

std::optional<LinkRate> run_link_rate(const RunPath &path) {
    std::optional<LinkRate> best;
    for (const auto *side : {&path.client, &path.server})
        if (*side)
            if (auto r = side_rate(**side))
                if (!best || r->bits_per_second < best->bits_per_second) best = std::move(r);
    return best;
}

std::optional<LinkRate> result_link_rate(const RunResult &run) {
    if (run.rails.empty()) return run_link_rate(run.path);
    LinkRate sum;
    for (const RailPart &rail : run.rails) {
        const auto r = run_link_rate(rail.path);
        if (!r) return std::nullopt;
        sum.bits_per_second += r->bits_per_second;
        sum.name += (sum.name.empty() ? "" : "+") + r->name;
        sum.text += (sum.text.empty() ? "" : " + ") + r->text;
    }
    return sum;
}

std::optional<LinkRate> row_link_rate(const RunResult &run, const std::string &row) {
    for (const RailPart &rail : run.rails)
        if (row.compare(0, rail.label.size() + 1, rail.label + "/") == 0)
            return run_link_rate(rail.path);
    return result_link_rate(run);
}

std::string link_rate_text(const LinkRate &rate) {
    return rate.name + " " + exact_str(rate.bits_per_second / 1e9) + " Gb/s";
}

std::map<std::string, double> row_link_fractions(const RunResult &run) {
    std::map<std::string, double> out;
    if (!result_link_rate(run)) return out;
    for (const auto &s : every_sample(run))
        if (s.metric == CompareMetric::Bandwidth && s.value && !s.per_run)
            if (const auto rate = row_link_rate(run, s.item))
                out.emplace(s.item, *s.value * 1e9 / rate->bits_per_second);
    return out;
}

} // namespace cmdbench
