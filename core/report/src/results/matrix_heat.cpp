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

namespace {

// Hue 120 (green) at the median, 0 (red) at the worse end, 210 (blue) at
// the better end.
int heat_hue(double position) {
    const double p = std::clamp(position, -1.0, 1.0);
    return int(std::lround(p >= 0 ? 120 * (1 - p) : 120 + 90 * -p));
}

} // namespace

std::string heat_color(double position) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "hsl(%d,70%%,72%%)", heat_hue(position));
    return buf;
}

Rgb heat_rgb(double position) {
    // CSS's HSL to RGB, at heat_color's saturation and lightness.
    const double s = 0.70, l = 0.72, h = heat_hue(position);
    const double a = s * std::min(l, 1 - l);
    const auto channel = [&](double n) {
        const double k = std::fmod(n + h / 30, 12);
        const double v = l - a * std::max(-1.0, std::min({k - 3, 9 - k, 1.0}));
        return static_cast<unsigned char>(std::lround(v * 255));
    };
    return {channel(0), channel(8), channel(4)};
}

} // namespace cmdbench
