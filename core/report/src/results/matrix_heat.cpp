#include "cmdbench/report/matrix/matrix_heat.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cmdbench {

double heat_position(double value, double median, bool higher_is_better) {
    if (!(value > 0) || !(median > 0) || !std::isfinite(value) || !std::isfinite(median)) return 0;
    double p = std::log(value / median) / std::log(kHeatScaleEnd);
    if (higher_is_better) p = -p;
    return std::clamp(p, -1.0, 1.0);
}

std::string heat_color(double position) {
    const double p = std::clamp(position, -1.0, 1.0);
    // Hue 120 (green) at the median, 0 (red) at the worse end, 210 (blue) at
    // the better end.
    const double hue = p >= 0 ? 120 * (1 - p) : 120 + 90 * -p;
    char buf[48];
    std::snprintf(buf, sizeof buf, "hsl(%d,70%%,72%%)", int(std::lround(hue)));
    return buf;
}

} // namespace cmdbench
