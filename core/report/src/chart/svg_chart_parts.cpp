#include "chart/svg_chart_parts.hpp"

#include <cmath>
#include <initializer_list>
#include <iterator>

namespace cmdbench::svg {
namespace {

// Okabe-Ito colours: distinguishable with the common colour blindnesses.
const char *const kColours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                "#e69f00", "#56b4e9", "#000000"};
// Dashes and marker shapes tell the series apart in greyscale too.
const char *const kDashes[] = {"", "7 4", "2 3", "10 3 2 3"};
constexpr size_t kShapes = 5;

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

} // namespace

void write_figure(std::ostream &out, const Figure &f, const std::function<void(Writer &)> &draw) {
    Writer w(out);
    open_figure(w, f.id, f.title, f.height);
    draw(w);
    close_figure(w, f.title, f.notes);
}

const char *colour(size_t i) {
    return kColours[i % std::size(kColours)];
}

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

std::vector<double> faint_lines(const ValueAxis &a) {
    std::vector<double> at;
    if (a.log && a.ticks.size() > 1 && a.ticks[1] == 10 * a.ticks[0])
        for (size_t k = 0; k + 1 < a.ticks.size(); ++k)
            for (const double m : {2.0, 5.0})
                at.push_back(m * a.ticks[k]);
    return at;
}

} // namespace cmdbench::svg
