// What the line and bar charts share: size, colours and dashes per series,
// the figure around a chart, markers, the legend's layout, value axes and
// caption notes.
#pragma once
#include "chart/svg_writer.hpp"
#include "cmdbench/report/svg_plot.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cmdbench::svg {

inline constexpr double kWidth = 640;
inline constexpr double kCharWidth = 6.6; // average advance of 12 px sans-serif, for layout
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// Series i's colour, and a line's stroke in its colour and dash pattern.
const char *colour(size_t i);
Attrs line_style(size_t i);

// v[i] when it is there and finite.
std::optional<double> at(const std::vector<std::optional<double>> &v, size_t i);

// A chart is a <figure>: an inline <svg> of its height, which `draw`
// fills, and a caption of its title and notes.
struct Figure {
    std::string id, title;
    double height = 0;
    std::vector<std::string> notes;
};
void write_figure(std::ostream &out, const Figure &f, const std::function<void(Writer &)> &draw);

// Series i's marker (circle, square, triangles, diamond) centred on x, y.
void marker(Writer &w, size_t i, double x, double y);

// Where each legend entry goes: left to right, wrapping onto new lines.
struct Legend {
    std::vector<std::pair<double, double>> at; // x of the swatch, y of the line's middle
    double height = 0;
};
Legend layout_legend(const std::vector<Series> &series, double left, double right, double top);

// "a, b, c, …": the first `cap` items.
std::string join_capped(const std::vector<std::string> &items, size_t cap);
// "3 values of 0 or less left out: a log scale cannot show <tail>"
std::string left_out_note(size_t hidden, const char *tail);

// A value axis: its ticks and the pixels they span, from the first tick at
// `from` to the last at `to`.
struct ValueAxis {
    std::vector<double> ticks;
    bool log = false;
    double d0 = 0, d1 = 1, from = 0, to = 1; // domain (log10 on a log axis), pixels
    double operator()(double v) const {
        const double t = log ? std::log10(v) : v;
        return from + (t - d0) / (d1 - d0) * (to - from);
    }
};
ValueAxis value_axis(std::vector<double> ticks, bool log, double from, double to);

// Over more than two decades only powers of ten are labelled: faint lines
// at 2 and 5 times them still help to read values off. Their values.
std::vector<double> faint_lines(const ValueAxis &a);

} // namespace cmdbench::svg
