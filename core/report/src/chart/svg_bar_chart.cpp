// The grouped horizontal bar chart (svg_plot.hpp), in steps: what can be
// drawn, the layout, hatches, axes, a group of bars per category, the legend.
#include "chart/svg_chart_parts.hpp"

#include <algorithm>
#include <cmath>

namespace cmdbench::svg {
namespace {

const Attrs kAside = {{"fill", "#777"}, {"font-size", "11"}, {"font-style", "italic"}};

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

void write_bar_chart(std::ostream &out, const BarChart &c) {
    const BarData data = scan_bar_data(c);
    const BarLayout l = layout_bar_chart(c, data);
    write_figure(out, {c.id, c.title, l.height, bar_notes(c, data)}, [&](Writer &w) {
        hatch_patterns(w, c, l);
        bar_axes(w, c, l, data.any);
        for (size_t j = 0; j < c.categories.size(); ++j)
            bar_group(w, c, l, j);
        bar_legend(w, c, l);
    });
}

} // namespace cmdbench::svg
