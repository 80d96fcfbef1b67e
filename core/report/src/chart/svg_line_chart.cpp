// The line chart against message size (svg_plot.hpp), in steps: what can be
// drawn, the layout, grid and axes, each series, the legend.
#include "chart/svg_chart_parts.hpp"
#include "cmdbench/report/report.hpp" // size_str: size ticks read as in the tables (64, 4k, 1m)

#include <algorithm>
#include <cmath>

namespace cmdbench::svg {
namespace {

// The pixel position of message sizes on a log2 axis.
struct SizeAxis {
    double lo = 0, hi = 1, p0 = 0, p1 = 1; // log2 domain, pixel range
    double operator()(double size) const {
        return p0 + (std::log2(size) - lo) / (hi - lo) * (p1 - p0);
    }
};

bool size_ok(const LineChart &c, size_t i) {
    return i < c.x.size() && std::isfinite(c.x[i]) && c.x[i] > 0;
}

bool value_ok(std::optional<double> v, bool log) {
    return v && (!log || *v > 0);
}

// What can be drawn: sizes > 0, and values > 0 on a log scale; and notes on
// what cannot.
struct LineData {
    double xmin = kInf, xmax = -kInf, ymin = kInf, ymax = -kInf;
    std::vector<double> good_x;
    bool bad_x = false;
    size_t hidden = 0;
    std::vector<std::string> notes;
};

void scan_sizes(const LineChart &c, LineData &d) {
    for (const double x : c.x) {
        if (std::isfinite(x) && x > 0) {
            d.xmin = std::min(d.xmin, x);
            d.xmax = std::max(d.xmax, x);
            d.good_x.push_back(x);
        } else {
            d.bad_x = true;
        }
    }
}

// One series' values and whiskers into the y range, and a note on sizes
// it has no value for.
void scan_series(const LineChart &c, const Series &s, LineData &d) {
    const bool log = c.y_scale == Scale::Log;
    std::vector<std::string> missing;
    for (size_t i = 0; i < c.x.size(); ++i) {
        if (!size_ok(c, i)) continue;
        const auto v = at(s.values, i), wh = at(s.whiskers, i);
        if (!v) missing.push_back(size_str(c.x[i]));
        for (const auto &p : {v, wh}) {
            if (!p) continue;
            if (!value_ok(p, log)) {
                ++d.hidden;
                continue;
            }
            d.ymin = std::min(d.ymin, *p);
            d.ymax = std::max(d.ymax, *p);
        }
    }
    if (!missing.empty() && missing.size() == d.good_x.size())
        d.notes.push_back("No values for " + s.name + ".");
    else if (!missing.empty())
        d.notes.push_back("No value for " + s.name + " at " + join_capped(missing, 6) + ".");
}

LineData scan_line_data(const LineChart &c) {
    LineData d;
    scan_sizes(c, d);
    if (!c.note.empty()) d.notes.push_back(c.note);
    for (const auto &s : c.series)
        scan_series(c, s, d);
    if (d.bad_x) d.notes.push_back("Rows without a message size (0 or less) are not plotted.");
    if (d.hidden) d.notes.push_back(left_out_note(d.hidden, "them."));
    return d;
}

struct LineLayout {
    double height = 360, left = 72, right = kWidth - 20, bottom = height - 50, top = 0;
    bool empty = false;
    Legend legend;
    ValueAxis y;
    SizeAxis x;
};

SizeAxis size_axis(const LineData &d, double left, double right) {
    SizeAxis ax;
    if (d.xmin <= d.xmax) {
        ax.lo = std::log2(d.xmin);
        ax.hi = std::log2(d.xmax);
    }
    if (ax.hi - ax.lo < 1e-9) { // one size: give it an octave either side
        ax.lo -= 1;
        ax.hi += 1;
    }
    ax.p0 = left + 16; // room for markers and whisker caps at the ends
    ax.p1 = right - 16;
    return ax;
}

LineLayout layout_line_chart(const LineChart &c, const LineData &d) {
    LineLayout l;
    const bool log = c.y_scale == Scale::Log;
    double ymin = d.ymin, ymax = d.ymax;
    l.empty = ymin > ymax;
    if (l.empty) ymin = ymax = log ? 1 : 0;
    auto ticks = log ? nice_ticks(ymin, ymax, Scale::Log)
                     : nice_ticks(std::min(0.0, ymin), std::max(0.0, ymax), Scale::Linear);
    l.legend = layout_legend(c.series, l.left, l.right, 8);
    l.top = 8 + l.legend.height + 10;
    l.y = value_axis(std::move(ticks), log, l.bottom, l.top);
    l.x = size_axis(d, l.left, l.right);
    return l;
}

// Horizontal grid lines and labels at the value ticks.
void value_grid(Writer &w, const LineLayout &l) {
    for (const double v : faint_lines(l.y))
        w.path(move_to(l.left, l.y(v)) + horizontal_to(l.right), {{"stroke", "#f2f2f2"}});
    for (const double t : l.y.ticks) {
        w.path(move_to(l.left, l.y(t)) + horizontal_to(l.right), {{"stroke", "#e3e3e3"}});
        w.text(l.left - 8, l.y(t), "end", tick_label(t));
    }
}

// Vertical grid lines and labels at powers of two, about 40 px apart.
void size_ticks(Writer &w, const SizeAxis &ax, const std::vector<double> &data_x, double top,
                double bottom) {
    std::vector<double> labelled, minor;
    const double octave = (ax.p1 - ax.p0) / (ax.hi - ax.lo);
    long step = 1;
    while (static_cast<double>(step) * octave < 40)
        step *= 2;
    for (long k = static_cast<long>(std::ceil(ax.lo)); k <= static_cast<long>(std::floor(ax.hi));
         ++k)
        (((k % step) + step) % step == 0 ? labelled : minor).push_back(std::ldexp(1.0, int(k)));
    if (labelled.empty()) labelled = data_x; // less than an octave: label the data
    for (const double v : labelled) {
        w.path(move_to(ax(v), top) + vertical_to(bottom), {{"stroke", "#e3e3e3"}});
        w.path(move_to(ax(v), bottom) + " v5", {{"stroke", "#444"}});
        w.text(ax(v), bottom + 16, "middle", size_str(v));
    }
    for (const double v : minor)
        w.path(move_to(ax(v), bottom) + " v3", {{"stroke", "#444"}});
}

// The axis lines, their titles, and "no data" on an empty chart.
void line_axes(Writer &w, const LineChart &c, const LineLayout &l) {
    w.path(move_to(l.left, l.top) + vertical_to(l.bottom) + horizontal_to(l.right),
           {{"fill", "none"}, {"stroke", "#444"}});
    w.text((l.left + l.right) / 2, l.height - 12, "middle", c.x_title);
    w.line(Tag("text")
               .attr("transform", "translate(16 " + px((l.top + l.bottom) / 2) + ") rotate(-90)")
               .attr("dy", "0.35em")
               .attr("text-anchor", "middle")
               .with_text(c.y_title));
    if (l.empty)
        w.text((l.left + l.right) / 2, (l.top + l.bottom) / 2, "middle", "no data",
               {{"fill", "#777"}});
}

void whisker(Writer &w, size_t s, double x, double y, double top) {
    w.path(move_to(x, y) + vertical_to(top) + ' ' + move_to(x - 4, top) + " h8",
           {{"stroke", colour(s)}, {"stroke-width", "1.5"}, {"fill", "none"}});
}

// Series s: whiskers, its line (broken where a value is missing), markers.
void line_series(Writer &w, const LineChart &c, const LineLayout &l, size_t s) {
    const Series &ser = c.series[s];
    const bool log = l.y.log;
    // Series side by side at a size, so whiskers do not hide each other.
    const double n = static_cast<double>(c.series.size());
    const double dodge = (static_cast<double>(s) - (n - 1) / 2) * 5;
    std::vector<std::pair<double, double>> pts;
    std::vector<std::vector<std::pair<double, double>>> runs(1);
    for (size_t i = 0; i < c.x.size(); ++i) {
        const auto v = at(ser.values, i);
        if (!size_ok(c, i) || !value_ok(v, log)) {
            if (!runs.back().empty()) runs.emplace_back(); // a gap in the line
            continue;
        }
        const double x = l.x(c.x[i]) + dodge, y = l.y(*v);
        runs.back().emplace_back(x, y);
        pts.emplace_back(x, y);
        if (const auto wh = at(ser.whiskers, i); value_ok(wh, log)) whisker(w, s, x, y, l.y(*wh));
    }
    for (const auto &run : runs) {
        if (run.size() < 2) continue;
        std::string points;
        for (const auto &[x, y] : run)
            points += (points.empty() ? "" : " ") + px(x) + ',' + px(y);
        w.line(Tag("polyline")
                   .attr("points", points)
                   .attr("fill", "none")
                   .attrs(line_style(s))
                   .empty());
    }
    for (const auto &[x, y] : pts)
        marker(w, s, x, y);
}

void line_legend(Writer &w, const LineChart &c, const Legend &legend) {
    for (size_t s = 0; s < c.series.size(); ++s) {
        const auto [x, y] = legend.at[s];
        w.path(move_to(x, y) + " h24", line_style(s));
        marker(w, s, x + 12, y);
        w.text(x + 30, y, "start", c.series[s].name);
    }
}

} // namespace

void write_line_chart(std::ostream &out, const LineChart &c) {
    const LineData data = scan_line_data(c);
    const LineLayout l = layout_line_chart(c, data);
    write_figure(out, {c.id, c.title, l.height, data.notes}, [&](Writer &w) {
        value_grid(w, l);
        size_ticks(w, l.x, data.good_x, l.top, l.bottom);
        line_axes(w, c, l);
        for (size_t s = 0; s < c.series.size(); ++s)
            line_series(w, c, l, s);
        line_legend(w, c, l.legend);
    });
}

} // namespace cmdbench::svg
