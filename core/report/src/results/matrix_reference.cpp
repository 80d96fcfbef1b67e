// What a matrix cell's colour is set against besides its run's median
// (matrix_view.hpp): a median says nothing of a rail that is slow on every
// pair, or of links all running at a tenth of their rate.
#include "cmdbench/report/matrix/matrix_heat.hpp"
#include "cmdbench/report/matrix/matrix_view.hpp"
#include "cmdbench/report/svg_plot.hpp"

#include <algorithm>
#include <cstdio>

namespace cmdbench {
namespace {

bool has_link_rate(const MatrixView &v) {
    for (const auto &row : v.cells)
        for (const MatrixCell &c : row)
            if (c.value && c.link_gbps) return true;
    return false;
}

std::string times(double ratio) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2fx", ratio);
    return buf;
}

} // namespace

double cell_heat(const MatrixView &v, const MatrixCell &c) {
    if (!c.value || !v.metric) return 0;
    const bool higher = higher_is_better(*v.metric);
    double at = heat_position(*c.value, v.median.value_or(0), higher);
    if (v.best_rail_median) at = std::max(at, heat_position(*c.value, *v.best_rail_median, higher));
    // At the link rate is as good as it gets: green, never blue.
    if (c.link_gbps) at = std::max(at, std::max(0.0, heat_position(*c.value, *c.link_gbps, true)));
    return at;
}

std::string heat_reference(const MatrixView &v) {
    std::vector<std::string> refs = {"the run's median"};
    if (v.best_rail_median) refs.push_back("the best rail's median (" + v.best_rail + ")");
    if (has_link_rate(v)) refs.push_back("the pair's link rate");
    if (refs.size() == 1) return refs[0];
    std::string out = "the worse of " + refs[0];
    for (size_t i = 1; i < refs.size(); ++i)
        out += (i + 1 == refs.size() ? " and " : ", ") + refs[i];
    return out;
}

std::string reference_line(const MatrixView &v) {
    if (!v.median || !v.metric) return "";
    const std::string unit = unit_of(*v.metric);
    std::string line;
    if (v.best_rail_median && *v.best_rail_median > 0)
        line = times(*v.median / *v.best_rail_median) + " the best rail's (" + v.best_rail + ": " +
               svg::format_value(*v.best_rail_median) + " " + unit + ")";
    std::vector<double> fractions;
    for (const auto &row : v.cells)
        for (const MatrixCell &c : row)
            if (c.value && c.link_gbps && *c.link_gbps > 0)
                fractions.push_back(*c.value / *c.link_gbps);
    if (!fractions.empty()) {
        std::sort(fractions.begin(), fractions.end());
        const size_t n = fractions.size();
        const double mid = n % 2 ? fractions[n / 2] : (fractions[n / 2 - 1] + fractions[n / 2]) / 2;
        char buf[48];
        std::snprintf(buf, sizeof buf, mid < 0.1 ? "%.3f" : "%.2f", mid);
        line +=
            (line.empty() ? "" : "; ") + std::string(buf) + " of the link rate (median over pairs)";
    }
    if (line.empty()) return "";
    return "median " + svg::format_value(*v.median) + " " + unit + ", " + line;
}

} // namespace cmdbench
