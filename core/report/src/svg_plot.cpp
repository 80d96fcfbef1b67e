// The report's charts (see svg_plot.hpp), each made of named steps: what
// can be drawn, the layout (computed from estimated text widths, so the page
// needs no script), then grid, axes, series and legend, written with
// svg_writer.hpp.
#include "svg_plot.hpp"

#include "report.hpp" // size_str: size ticks read as in the tables (64, 4k, 1m)
#include "svg_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <iterator>
#include <limits>

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

namespace {

constexpr double kWidth = 640;
constexpr double kCharWidth = 6.6; // average advance of 12 px sans-serif, for layout
// Okabe-Ito colours: distinguishable with the common colour blindnesses.
const char *const kColours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                "#e69f00", "#56b4e9", "#000000"};
// Dashes and marker shapes tell the series apart in greyscale too.
const char *const kDashes[] = {"", "7 4", "2 3", "10 3 2 3"};
constexpr size_t kShapes = 5;
constexpr double kInf = std::numeric_limits<double>::infinity();
const Attrs kAside = {{"fill", "#777"}, {"font-size", "11"}, {"font-style", "italic"}};

const char *colour(size_t i) {
    return kColours[i % std::size(kColours)];
}

// A line's stroke in series i's colour and dash pattern.
Attrs line_style(size_t i) {
    Attrs style = {{"stroke", colour(i)}, {"stroke-width", "2"}};
    if (*kDashes[i % std::size(kDashes)])
        style.emplace_back("stroke-dasharray", kDashes[i % std::size(kDashes)]);
    return style;
}

std::optional<double> at(const std::vector<std::optional<double>> &v, size_t i) {
    if (i >= v.size() || !v[i] || !std::isfinite(*v[i])) return std::nullopt;
    return v[i];
}

// ------------------------------------------------------------ common steps

void open_figure(Writer &w, const std::string &id, const std::string &title, double height) {
    w.line(Tag("figure").attr("class", "plot").attr("id", id).open());
    w.line(Tag("svg")
               .attr("class", "chart")
               .attr("role", "img")
               .attr("aria-label", title)
               .attr("width", kWidth)
               .attr("height", height)
               .attr("viewBox", "0 0 " + px(kWidth) + ' ' + px(height))
               .attr("font-family", "sans-serif")
               .attr("font-size", "12")
               .attr("fill", "#222")
               .open());
}

void close_figure(Writer &w, const std::string &title, const std::vector<std::string> &notes) {
    w.line("</svg>");
    std::string caption = Tag("figcaption").open() + escape(title);
    for (const auto &n : notes)
        caption += Tag("span").attr("class", "note").with_text(n);
    w.line(caption + "</figcaption>");
    w.line("</figure>");
}

void marker(Writer &w, size_t i, double x, double y) {
    const Attrs style = {{"fill", colour(i)}, {"stroke", "#fff"}, {"stroke-width", "1"}};
    auto pt = [&](double dx, double dy) { return px(x + dx) + ' ' + px(y + dy); };
    auto shape = [&](std::initializer_list<std::pair<double, double>> corners) {
        std::string d;
        for (const auto &[dx, dy] : corners)
            d += (d.empty() ? "M" : " L") + pt(dx, dy);
        w.line(Tag("path").attr("d", d + " Z").attrs(style).empty());
    };
    switch (i % kShapes) {
    case 0:
        w.line(Tag("circle").attr("cx", x).attr("cy", y).attr("r", "4.5").attrs(style).empty());
        break;
    case 1:
        w.line(Tag("rect")
                   .attr("x", x - 4)
                   .attr("y", y - 4)
                   .attr("width", "8")
                   .attr("height", "8")
                   .attrs(style)
                   .empty());
        break;
    case 2:
        shape({{0, -5.5}, {5, 3.5}, {-5, 3.5}});
        break;
    case 3:
        shape({{0, -5.5}, {5.5, 0}, {0, 5.5}, {-5.5, 0}});
        break;
    default:
        shape({{0, 5.5}, {5, -3.5}, {-5, -3.5}});
    }
}

// Where each legend entry goes: left to right, wrapping onto new lines.
struct Legend {
    std::vector<std::pair<double, double>> at; // x of the swatch, y of the line's middle
    double height = 0;
};

Legend layout_legend(const std::vector<Series> &series, double left, double right, double top) {
    Legend l;
    double x = left, y = top + 8;
    for (const auto &s : series) {
        const double w = 30 + static_cast<double>(s.name.size()) * kCharWidth + 18;
        if (x + w > right && x > left) {
            x = left;
            y += 18;
        }
        l.at.emplace_back(x, y);
        x += w;
    }
    l.height = series.empty() ? 0 : y - top + 10;
    return l;
}

std::string join_capped(const std::vector<std::string> &items, size_t cap) {
    std::string s;
    for (size_t i = 0; i < items.size() && i < cap; ++i)
        s += (i ? ", " : "") + items[i];
    if (items.size() > cap) s += ", …";
    return s;
}

std::string left_out_note(size_t hidden, const char *tail) {
    return std::to_string(hidden) + (hidden == 1 ? " value" : " values") +
           " of 0 or less left out: a log scale cannot show " + tail;
}

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

ValueAxis value_axis(std::vector<double> ticks, bool log, double from, double to) {
    ValueAxis a;
    a.log = log;
    a.d0 = log ? std::log10(ticks.front()) : ticks.front();
    a.d1 = log ? std::log10(ticks.back()) : ticks.back();
    a.ticks = std::move(ticks);
    a.from = from;
    a.to = to;
    return a;
}

// Over more than two decades only powers of ten are labelled: faint lines
// at 2 and 5 times them still help to read values off.
std::vector<double> faint_lines(const ValueAxis &a) {
    std::vector<double> at;
    if (a.log && a.ticks.size() > 1 && a.ticks[1] == 10 * a.ticks[0])
        for (size_t k = 0; k + 1 < a.ticks.size(); ++k)
            for (const double m : {2.0, 5.0})
                at.push_back(m * a.ticks[k]);
    return at;
}

// -------------------------------------------------------------- line chart

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

// --------------------------------------------------------------- bar chart

// What can be drawn: every value on a linear axis, values > 0 on a log
// one. A linear axis always shows 0, where the bars start.
struct BarData {
    double lo = 0, hi = 0;
    bool missing = false, any = false;
    size_t hidden = 0;
};

BarData scan_bar_data(const BarChart &c) {
    const bool log = c.value_scale == Scale::Log;
    BarData d;
    if (log) {
        d.lo = kInf;
        d.hi = -kInf;
    }
    for (const auto &s : c.series) {
        for (size_t j = 0; j < c.categories.size(); ++j) {
            const auto v = at(s.values, j);
            if (!v) {
                d.missing = true;
            } else if (log && *v <= 0) {
                ++d.hidden;
            } else {
                d.lo = std::min(d.lo, *v);
                d.hi = std::max(d.hi, *v);
                d.any = true;
            }
        }
    }
    if (!d.any && log) d.lo = d.hi = 1;
    return d;
}

std::vector<std::string> bar_notes(const BarChart &c, const BarData &d) {
    std::vector<std::string> notes;
    if (!c.note.empty()) notes.push_back(c.note);
    if (d.missing) notes.push_back("n/a: no value for that variant.");
    if (d.hidden) notes.push_back(left_out_note(d.hidden, d.hidden == 1 ? "it." : "them."));
    return notes;
}

struct BarLayout {
    size_t nser = 1;
    double left = 0, right = kWidth - 60; // room for value labels
    double bar = 12, pitch = 14, gap = 10, group = 0;
    double top = 0, bottom = 0, height = 0;
    Legend legend;
    ValueAxis x;
    double base = 0; // where bars start
    std::string id;
};

BarLayout layout_bar_chart(const BarChart &c, const BarData &d) {
    BarLayout l;
    const size_t ncat = c.categories.size();
    l.nser = std::max<size_t>(1, c.series.size());
    size_t longest = 0;
    for (const auto &cat : c.categories)
        longest = std::max(longest, cat.size());
    const double label_w = std::clamp(static_cast<double>(longest) * kCharWidth, 40.0, 240.0);
    l.left = label_w + 16;
    l.group = static_cast<double>(l.nser) * l.pitch + l.gap;
    l.legend = layout_legend(c.series, l.left, kWidth - 8, 8);
    l.top = 8 + l.legend.height + 8;
    l.bottom = l.top + static_cast<double>(std::max<size_t>(ncat, 1)) * l.group;
    l.height = l.bottom + 48;
    l.id = c.id.empty() ? "chart" : c.id;
    const bool log = c.value_scale == Scale::Log;
    // A smallest value of exactly a power of ten would start the axis and get
    // a bar of no length: start a decade lower.
    l.x = value_axis(nice_ticks(log ? d.lo * (1 - 1e-9) : d.lo, d.hi, c.value_scale), log, l.left,
                     l.right);
    // Bars grow from 0, or on a log axis from its first tick: a power of ten
    // at or below the smallest value.
    l.base = log ? l.x.ticks.front() : 0.0;
    return l;
}

// Every other series hatched, so neighbouring bars differ without colour.
std::string bar_fill(const BarLayout &l, size_t s) {
    return s % 2 ? "url(#" + l.id + "-h" + std::to_string(s) + ")" : std::string(colour(s));
}

void hatch_patterns(Writer &w, const BarChart &c, const BarLayout &l) {
    std::string defs = "<defs>";
    for (size_t s = 1; s < c.series.size(); s += 2)
        defs += Tag("pattern")
                    .attr("id", l.id + "-h" + std::to_string(s))
                    .attr("width", "6")
                    .attr("height", "6")
                    .attr("patternUnits", "userSpaceOnUse")
                    .attr("patternTransform", "rotate(45)")
                    .open() +
                Tag("rect").attr("width", "6").attr("height", "6").attr("fill", colour(s)).empty() +
                Tag("rect")
                    .attr("width", "2.5")
                    .attr("height", "6")
                    .attr("fill", "#fff")
                    .attr("fill-opacity", "0.6")
                    .empty() +
                "</pattern>";
    w.line(defs + "</defs>");
}

// Vertical grid lines and labels at the value ticks, the line bars start
// from, the axis title, and "no data" on an empty chart.
void bar_axes(Writer &w, const BarChart &c, const BarLayout &l, bool any) {
    for (const double v : faint_lines(l.x))
        w.path(move_to(l.x(v), l.top) + vertical_to(l.bottom), {{"stroke", "#f2f2f2"}});
    for (const double t : l.x.ticks) {
        w.path(move_to(l.x(t), l.top) + vertical_to(l.bottom + 5), {{"stroke", "#e3e3e3"}});
        w.text(l.x(t), l.bottom + 16, "middle", tick_label(t));
    }
    w.path(move_to(l.x(l.base), l.top) + vertical_to(l.bottom), {{"stroke", "#444"}});
    w.text((l.left + l.right) / 2, l.height - 12, "middle",
           c.value_title + (l.x.log ? " (log scale)" : ""));
    if (!any)
        w.text((l.left + l.right) / 2, (l.top + l.bottom) / 2, "middle", "no data",
               {{"fill", "#777"}});
}

// Series s's bar at vertical position y, with its value; or why it has none.
void bar(Writer &w, const BarLayout &l, size_t s, double y, std::optional<double> v) {
    const double x0 = l.x(l.base);
    if (!v) {
        w.text(x0 + 4, y + l.bar / 2, "start", "n/a", kAside);
        return;
    }
    if (l.x.log && *v <= 0) {
        w.text(x0 + 4, y + l.bar / 2, "start", format_value(*v) + " (left out)", kAside);
        return;
    }
    const double x1 = l.x(*v);
    w.line(Tag("rect")
               .attr("x", std::min(x0, x1))
               .attr("y", y)
               .attr("width", std::fabs(x1 - x0))
               .attr("height", l.bar)
               .attr("fill", bar_fill(l, s))
               .attr("stroke", colour(s))
               .empty());
    w.text(*v < 0 ? x1 - 4 : x1 + 4, y + l.bar / 2, *v < 0 ? "end" : "start", format_value(*v),
           {{"font-size", "11"}});
}

// Category j: its name and one bar per series.
void bar_group(Writer &w, const BarChart &c, const BarLayout &l, size_t j) {
    const double y0 = l.top + static_cast<double>(j) * l.group + l.gap / 2;
    w.text(l.left - 8, y0 + static_cast<double>(l.nser) * l.pitch / 2 - 1, "end", c.categories[j]);
    for (size_t s = 0; s < c.series.size(); ++s)
        bar(w, l, s, y0 + static_cast<double>(s) * l.pitch, at(c.series[s].values, j));
}

void bar_legend(Writer &w, const BarChart &c, const BarLayout &l) {
    for (size_t s = 0; s < c.series.size(); ++s) {
        const auto [x, y] = l.legend.at[s];
        w.line(Tag("rect")
                   .attr("x", x)
                   .attr("y", y - 6)
                   .attr("width", "22")
                   .attr("height", "12")
                   .attr("fill", bar_fill(l, s))
                   .attr("stroke", colour(s))
                   .empty());
        w.text(x + 30, y, "start", c.series[s].name);
    }
}

} // namespace

void write_line_chart(std::ostream &out, const LineChart &c) {
    const LineData data = scan_line_data(c);
    const LineLayout layout = layout_line_chart(c, data);
    Writer w(out);
    open_figure(w, c.id, c.title, layout.height);
    value_grid(w, layout);
    size_ticks(w, layout.x, data.good_x, layout.top, layout.bottom);
    line_axes(w, c, layout);
    for (size_t s = 0; s < c.series.size(); ++s)
        line_series(w, c, layout, s);
    line_legend(w, c, layout.legend);
    close_figure(w, c.title, data.notes);
}

void write_bar_chart(std::ostream &out, const BarChart &c) {
    const BarData data = scan_bar_data(c);
    const BarLayout layout = layout_bar_chart(c, data);
    Writer w(out);
    open_figure(w, c.id, c.title, layout.height);
    hatch_patterns(w, c, layout);
    bar_axes(w, c, layout, data.any);
    for (size_t j = 0; j < c.categories.size(); ++j)
        bar_group(w, c, layout, j);
    bar_legend(w, c, layout);
    close_figure(w, c.title, bar_notes(c, data));
}

} // namespace cmdbench::svg
