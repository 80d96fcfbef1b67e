// The axis helpers of the report's charts (svg_plot.hpp): ticks and the
// text of ticks and values. The charts are svg_line_chart.cpp and
// svg_bar_chart.cpp.
#include "cmdbench/report/svg_plot.hpp"

#include <cmath>
#include <cstdio>

namespace cmdbench::svg {

std::vector<double> nice_ticks(double lo, double hi, Scale scale) {
    if (!(hi >= lo)) std::swap(lo, hi);
    std::vector<double> ticks;
    if (scale == Scale::Log) {
        if (!(lo > 0)) lo = hi > 0 ? hi / 10 : 1;
        if (!(hi > 0)) hi = lo;
        int a = static_cast<int>(std::floor(std::log10(lo)));
        int b = static_cast<int>(std::ceil(std::log10(hi)));
        if (a == b) { // one exact power of ten: put it in the middle
            --a;
            ++b;
        }
        const bool fine = b - a <= 2;
        for (int e = a; e <= b; ++e) {
            const double p = std::pow(10.0, e);
            ticks.push_back(p);
            if (fine && e < b) {
                ticks.push_back(2 * p);
                ticks.push_back(5 * p);
            }
        }
        return ticks;
    }
    if (hi == lo) hi = lo + (lo == 0 ? 1 : std::fabs(lo));
    const double raw = (hi - lo) / 5;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * mag;
    for (const double m : {1.0, 2.0, 2.5, 5.0}) {
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    }
    // The epsilon keeps a bound that is a multiple of the step from adding a
    // tick beyond it through rounding.
    const long first = static_cast<long>(std::floor(lo / step + 1e-9));
    const long last = static_cast<long>(std::ceil(hi / step - 1e-9));
    for (long i = first; i <= last; ++i)
        ticks.push_back(static_cast<double>(i) * step);
    return ticks;
}

std::string tick_label(double value) {
    const double a = std::fabs(value);
    const char *suffix = "";
    if (a >= 1e9) {
        value /= 1e9;
        suffix = "G";
    } else if (a >= 1e6) {
        value /= 1e6;
        suffix = "M";
    } else if (a >= 1e4) {
        value /= 1e3;
        suffix = "k";
    }
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.4g%s", value, suffix);
    return buf;
}

std::string format_value(double value) {
    if (!std::isfinite(value)) return "n/a";
    const double a = std::fabs(value);
    const char *f = a >= 100   ? "%.0f"
                    : a >= 10  ? "%.1f"
                    : a >= 1   ? "%.2f"
                    : a >= 0.1 ? "%.3f"
                               : "%.3g";
    char buf[64];
    std::snprintf(buf, sizeof buf, f, value);
    return buf;
}

} // namespace cmdbench::svg
