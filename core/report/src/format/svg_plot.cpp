// Hand-written SVG for the report's charts (see svg_plot.hpp). Layout is
// computed here from estimated text widths, so the page needs no script.
#include "cmdbench/report/svg_plot.hpp"

#include "cmdbench/report/report.hpp" // size_str: size ticks read as in the tables (64, 4k, 1m)

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>

namespace cmdbench::svg {

std::string escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        case '\t':
        case '\n':
        case '\r':
            out += c;
            break;
        default:
            // Other control characters are not allowed in XML: keep the page
            // well-formed whatever a plugin put in a name.
            if (static_cast<unsigned char>(c) < 0x20)
                out += "\xEF\xBF\xBD";
            else
                out += c;
        }
    }
    return out;
}

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

const char *colour(size_t i) {
    return kColours[i % std::size(kColours)];
}

std::string px(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::optional<double> at(const std::vector<std::optional<double>> &v, size_t i) {
    if (i >= v.size() || !v[i] || !std::isfinite(*v[i])) return std::nullopt;
    return v[i];
}

void open_figure(std::ostream &out, const std::string &id, const std::string &title,
                 double height) {
    out << "<figure class=\"plot\" id=\"" << escape(id) << "\">\n"
        << "<svg class=\"chart\" role=\"img\" aria-label=\"" << escape(title) << "\" width=\""
        << px(kWidth) << "\" height=\"" << px(height) << "\" viewBox=\"0 0 " << px(kWidth) << ' '
        << px(height) << "\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#222\">\n";
}

void close_figure(std::ostream &out, const std::string &title,
                  const std::vector<std::string> &notes) {
    out << "</svg>\n<figcaption>" << escape(title);
    for (const auto &n : notes)
        out << "<span class=\"note\">" << escape(n) << "</span>";
    out << "</figcaption>\n</figure>\n";
}

void text(std::ostream &out, double x, double y, const char *anchor, const std::string &s,
          const char *extra = "") {
    out << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\" dy=\"0.35em\" text-anchor=\""
        << anchor << "\"" << extra << ">" << escape(s) << "</text>\n";
}

void marker(std::ostream &out, size_t i, double x, double y) {
    const std::string c = colour(i);
    const std::string tail = "\" fill=\"" + c + "\" stroke=\"#fff\" stroke-width=\"1\"/>\n";
    auto pt = [&](double dx, double dy) { return px(x + dx) + ' ' + px(y + dy); };
    switch (i % kShapes) {
    case 0:
        out << "<circle cx=\"" << px(x) << "\" cy=\"" << px(y) << "\" r=\"4.5" << tail;
        break;
    case 1:
        out << "<rect x=\"" << px(x - 4) << "\" y=\"" << px(y - 4) << "\" width=\"8\" height=\"8"
            << tail;
        break;
    case 2:
        out << "<path d=\"M" << pt(0, -5.5) << " L" << pt(5, 3.5) << " L" << pt(-5, 3.5) << " Z"
            << tail;
        break;
    case 3:
        out << "<path d=\"M" << pt(0, -5.5) << " L" << pt(5.5, 0) << " L" << pt(0, 5.5) << " L"
            << pt(-5.5, 0) << " Z" << tail;
        break;
    default:
        out << "<path d=\"M" << pt(0, 5.5) << " L" << pt(5, -3.5) << " L" << pt(-5, -3.5) << " Z"
            << tail;
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

void y_title(std::ostream &out, double top, double bottom, const std::string &title) {
    const std::string cy = px((top + bottom) / 2);
    out << "<text transform=\"translate(16 " << cy
        << ") rotate(-90)\" dy=\"0.35em\" text-anchor=\"middle\">" << escape(title) << "</text>\n";
}

std::string join_capped(const std::vector<std::string> &items, size_t cap) {
    std::string s;
    for (size_t i = 0; i < items.size() && i < cap; ++i)
        s += (i ? ", " : "") + items[i];
    if (items.size() > cap) s += ", …";
    return s;
}

// The pixel position of message sizes on a log2 axis.
struct SizeAxis {
    double lo = 0, hi = 1, p0 = 0, p1 = 1; // log2 domain, pixel range
    double operator()(double size) const {
        return p0 + (std::log2(size) - lo) / (hi - lo) * (p1 - p0);
    }
};

void size_ticks(std::ostream &out, const SizeAxis &ax, const std::vector<double> &data_x,
                double top, double bottom) {
    std::vector<double> labelled, minor;
    const double octave = (ax.p1 - ax.p0) / (ax.hi - ax.lo);
    long step = 1;
    while (static_cast<double>(step) * octave < 40) // keep labels about 40 px apart
        step *= 2;
    for (long k = static_cast<long>(std::ceil(ax.lo)); k <= static_cast<long>(std::floor(ax.hi));
         ++k)
        (((k % step) + step) % step == 0 ? labelled : minor).push_back(std::ldexp(1.0, int(k)));
    if (labelled.empty()) labelled = data_x; // less than an octave: label the data
    for (const double v : labelled) {
        const std::string x = px(ax(v));
        out << "<path d=\"M" << x << ' ' << px(top) << " V" << px(bottom)
            << "\" stroke=\"#e3e3e3\"/>\n<path d=\"M" << x << ' ' << px(bottom)
            << " v5\" stroke=\"#444\"/>\n";
        text(out, ax(v), bottom + 16, "middle", size_str(v));
    }
    for (const double v : minor)
        out << "<path d=\"M" << px(ax(v)) << ' ' << px(bottom) << " v3\" stroke=\"#444\"/>\n";
}

} // namespace

void write_line_chart(std::ostream &out, const LineChart &c) {
    const double height = 360, left = 72, right = kWidth - 20, bottom = height - 50;
    const bool log_y = c.y_scale == Scale::Log;
    const double inf = std::numeric_limits<double>::infinity();

    // What can be drawn: sizes > 0, and values > 0 on a log scale.
    double xmin = inf, xmax = -inf, ymin = inf, ymax = -inf;
    std::vector<double> good_x;
    bool bad_x = false;
    for (const double x : c.x) {
        if (std::isfinite(x) && x > 0) {
            xmin = std::min(xmin, x);
            xmax = std::max(xmax, x);
            good_x.push_back(x);
        } else {
            bad_x = true;
        }
    }
    auto x_ok = [&](size_t i) { return i < c.x.size() && std::isfinite(c.x[i]) && c.x[i] > 0; };
    auto y_ok = [&](std::optional<double> v) { return v && (!log_y || *v > 0); };
    size_t hidden = 0;
    std::vector<std::string> notes;
    if (!c.note.empty()) notes.push_back(c.note);
    for (const auto &s : c.series) {
        std::vector<std::string> missing;
        for (size_t i = 0; i < c.x.size(); ++i) {
            if (!x_ok(i)) continue;
            const auto v = at(s.values, i), w = at(s.whiskers, i);
            if (!v) missing.push_back(size_str(c.x[i]));
            for (const auto &p : {v, w}) {
                if (!p) continue;
                if (!y_ok(p)) {
                    ++hidden;
                    continue;
                }
                ymin = std::min(ymin, *p);
                ymax = std::max(ymax, *p);
            }
        }
        if (!missing.empty() && missing.size() == good_x.size())
            notes.push_back("No values for " + s.name + ".");
        else if (!missing.empty())
            notes.push_back("No value for " + s.name + " at " + join_capped(missing, 6) + ".");
    }
    if (bad_x) notes.push_back("Rows without a message size (0 or less) are not plotted.");
    if (hidden)
        notes.push_back(std::to_string(hidden) + (hidden == 1 ? " value" : " values") +
                        " of 0 or less left out: a log scale cannot show them.");

    const bool empty = ymin > ymax;
    if (empty) ymin = ymax = log_y ? 1 : 0;
    const auto ticks = log_y ? nice_ticks(ymin, ymax, Scale::Log)
                             : nice_ticks(std::min(0.0, ymin), std::max(0.0, ymax), Scale::Linear);
    const double d0 = log_y ? std::log10(ticks.front()) : ticks.front();
    const double d1 = log_y ? std::log10(ticks.back()) : ticks.back();
    const Legend legend = layout_legend(c.series, left, right, 8);
    const double top = 8 + legend.height + 10;
    auto ty = [&](double v) {
        const double t = log_y ? std::log10(v) : v;
        return bottom - (t - d0) / (d1 - d0) * (bottom - top);
    };
    SizeAxis ax;
    if (xmin <= xmax) {
        ax.lo = std::log2(xmin);
        ax.hi = std::log2(xmax);
    }
    if (ax.hi - ax.lo < 1e-9) { // one size: give it an octave either side
        ax.lo -= 1;
        ax.hi += 1;
    }
    ax.p0 = left + 16; // room for markers and whisker caps at the ends
    ax.p1 = right - 16;

    open_figure(out, c.id, c.title, height);
    // Over more than two decades only powers of ten are labelled: faint
    // lines at 2 and 5 times them still help to read values off.
    if (log_y && ticks.size() > 1 && ticks[1] == 10 * ticks[0])
        for (size_t k = 0; k + 1 < ticks.size(); ++k)
            for (const double m : {2.0, 5.0})
                out << "<path d=\"M" << px(left) << ' ' << px(ty(m * ticks[k])) << " H" << px(right)
                    << "\" stroke=\"#f2f2f2\"/>\n";
    for (const double t : ticks) {
        const std::string y = px(ty(t));
        out << "<path d=\"M" << px(left) << ' ' << y << " H" << px(right)
            << "\" stroke=\"#e3e3e3\"/>\n";
        text(out, left - 8, ty(t), "end", tick_label(t));
    }
    size_ticks(out, ax, good_x, top, bottom);
    out << "<path d=\"M" << px(left) << ' ' << px(top) << " V" << px(bottom) << " H" << px(right)
        << "\" fill=\"none\" stroke=\"#444\"/>\n";
    text(out, (left + right) / 2, height - 12, "middle", c.x_title);
    y_title(out, top, bottom, c.y_title);
    if (empty)
        text(out, (left + right) / 2, (top + bottom) / 2, "middle", "no data", " fill=\"#777\"");

    const size_t n = c.series.size();
    for (size_t s = 0; s < n; ++s) {
        const Series &ser = c.series[s];
        // Series side by side at a size, so whiskers do not hide each other.
        const double dodge = (static_cast<double>(s) - (static_cast<double>(n) - 1) / 2) * 5;
        std::vector<std::pair<double, double>> pts;
        std::vector<std::vector<std::pair<double, double>>> runs(1);
        for (size_t i = 0; i < c.x.size(); ++i) {
            const auto v = at(ser.values, i);
            if (!x_ok(i) || !y_ok(v)) {
                if (!runs.back().empty()) runs.emplace_back(); // a gap in the line
                continue;
            }
            const double x = ax(c.x[i]) + dodge, y = ty(*v);
            runs.back().emplace_back(x, y);
            pts.emplace_back(x, y);
            if (const auto w = at(ser.whiskers, i); y_ok(w))
                out << "<path d=\"M" << px(x) << ' ' << px(y) << " V" << px(ty(*w)) << " M"
                    << px(x - 4) << ' ' << px(ty(*w)) << " h8\" stroke=\"" << colour(s)
                    << "\" stroke-width=\"1.5\" fill=\"none\"/>\n";
        }
        for (const auto &run : runs) {
            if (run.size() < 2) continue;
            out << "<polyline points=\"";
            for (size_t k = 0; k < run.size(); ++k)
                out << (k ? " " : "") << px(run[k].first) << ',' << px(run[k].second);
            out << "\" fill=\"none\" stroke=\"" << colour(s) << "\" stroke-width=\"2\"";
            if (*kDashes[s % std::size(kDashes)])
                out << " stroke-dasharray=\"" << kDashes[s % std::size(kDashes)] << "\"";
            out << "/>\n";
        }
        for (const auto &[x, y] : pts)
            marker(out, s, x, y);
    }
    for (size_t s = 0; s < n; ++s) {
        const auto [x, y] = legend.at[s];
        out << "<path d=\"M" << px(x) << ' ' << px(y) << " h24\" stroke=\"" << colour(s)
            << "\" stroke-width=\"2\"";
        if (*kDashes[s % std::size(kDashes)])
            out << " stroke-dasharray=\"" << kDashes[s % std::size(kDashes)] << "\"";
        out << "/>\n";
        marker(out, s, x + 12, y);
        text(out, x + 30, y, "start", c.series[s].name);
    }
    close_figure(out, c.title, notes);
}

void write_bar_chart(std::ostream &out, const BarChart &c) {
    const size_t ncat = c.categories.size(), nser = std::max<size_t>(1, c.series.size());
    size_t longest = 0;
    for (const auto &cat : c.categories)
        longest = std::max(longest, cat.size());
    const double label_w = std::clamp(static_cast<double>(longest) * kCharWidth, 40.0, 240.0);
    const double left = label_w + 16, right = kWidth - 60; // room for value labels
    const double bar = 12, pitch = 14, gap = 10, group = static_cast<double>(nser) * pitch + gap;
    const Legend legend = layout_legend(c.series, left, kWidth - 8, 8);
    const double top = 8 + legend.height + 8;
    const double bottom = top + static_cast<double>(std::max<size_t>(ncat, 1)) * group;
    const double height = bottom + 48;
    const std::string id = c.id.empty() ? "chart" : c.id;

    // What can be drawn: every value on a linear axis, values > 0 on a log
    // one. A linear axis always shows 0, where the bars start.
    const bool log_x = c.value_scale == Scale::Log;
    const double inf = std::numeric_limits<double>::infinity();
    double lo = log_x ? inf : 0, hi = log_x ? -inf : 0;
    bool missing = false, any = false;
    size_t hidden = 0;
    for (const auto &s : c.series) {
        for (size_t j = 0; j < ncat; ++j) {
            const auto v = at(s.values, j);
            if (!v) {
                missing = true;
            } else if (log_x && *v <= 0) {
                ++hidden;
            } else {
                lo = std::min(lo, *v);
                hi = std::max(hi, *v);
                any = true;
            }
        }
    }
    if (!any && log_x) lo = hi = 1;
    // A smallest value of exactly a power of ten would start the axis and get
    // a bar of no length: start a decade lower.
    const auto ticks = nice_ticks(log_x ? lo * (1 - 1e-9) : lo, hi, c.value_scale);
    const double d0 = log_x ? std::log10(ticks.front()) : ticks.front();
    const double d1 = log_x ? std::log10(ticks.back()) : ticks.back();
    auto tx = [&](double v) {
        const double t = log_x ? std::log10(v) : v;
        return left + (t - d0) / (d1 - d0) * (right - left);
    };
    // Bars grow from 0, or on a log axis from its first tick: a power of ten
    // at or below the smallest value.
    const double base = log_x ? ticks.front() : 0.0;
    std::vector<std::string> notes;
    if (!c.note.empty()) notes.push_back(c.note);
    if (missing) notes.push_back("n/a: no value for that variant.");
    if (hidden)
        notes.push_back(std::to_string(hidden) + (hidden == 1 ? " value" : " values") +
                        " of 0 or less left out: a log scale cannot show " +
                        (hidden == 1 ? "it." : "them."));

    open_figure(out, c.id, c.title, height);
    // Every other series hatched, so neighbouring bars differ without colour.
    out << "<defs>";
    for (size_t s = 1; s < c.series.size(); s += 2)
        out << "<pattern id=\"" << escape(id) << "-h" << s
            << "\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
               "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\""
            << colour(s)
            << "\"/><rect width=\"2.5\" height=\"6\" fill=\"#fff\" "
               "fill-opacity=\"0.6\"/></pattern>";
    out << "</defs>\n";
    auto fill = [&](size_t s) {
        return s % 2 ? "url(#" + escape(id) + "-h" + std::to_string(s) + ")"
                     : std::string(colour(s));
    };
    // Over more than two decades only powers of ten are labelled: faint
    // lines at 2 and 5 times them still help to read values off.
    if (log_x && ticks.size() > 1 && ticks[1] == 10 * ticks[0])
        for (size_t k = 0; k + 1 < ticks.size(); ++k)
            for (const double m : {2.0, 5.0})
                out << "<path d=\"M" << px(tx(m * ticks[k])) << ' ' << px(top) << " V" << px(bottom)
                    << "\" stroke=\"#f2f2f2\"/>\n";
    for (const double t : ticks) {
        const std::string x = px(tx(t));
        out << "<path d=\"M" << x << ' ' << px(top) << " V" << px(bottom + 5)
            << "\" stroke=\"#e3e3e3\"/>\n";
        text(out, tx(t), bottom + 16, "middle", tick_label(t));
    }
    out << "<path d=\"M" << px(tx(base)) << ' ' << px(top) << " V" << px(bottom)
        << "\" stroke=\"#444\"/>\n";
    text(out, (left + right) / 2, height - 12, "middle",
         c.value_title + (log_x ? " (log scale)" : ""));
    if (!any)
        text(out, (left + right) / 2, (top + bottom) / 2, "middle", "no data", " fill=\"#777\"");

    const char *aside = " fill=\"#777\" font-size=\"11\" font-style=\"italic\"";
    for (size_t j = 0; j < ncat; ++j) {
        const double y0 = top + static_cast<double>(j) * group + gap / 2;
        text(out, left - 8, y0 + static_cast<double>(nser) * pitch / 2 - 1, "end", c.categories[j]);
        for (size_t s = 0; s < c.series.size(); ++s) {
            const double y = y0 + static_cast<double>(s) * pitch;
            const auto v = at(c.series[s].values, j);
            if (!v) {
                text(out, tx(base) + 4, y + bar / 2, "start", "n/a", aside);
                continue;
            }
            if (log_x && *v <= 0) {
                text(out, tx(base) + 4, y + bar / 2, "start", format_value(*v) + " (left out)",
                     aside);
                continue;
            }
            const double x0 = tx(base), x1 = tx(*v);
            out << "<rect x=\"" << px(std::min(x0, x1)) << "\" y=\"" << px(y) << "\" width=\""
                << px(std::fabs(x1 - x0)) << "\" height=\"" << px(bar) << "\" fill=\"" << fill(s)
                << "\" stroke=\"" << colour(s) << "\"/>\n";
            text(out, *v < 0 ? x1 - 4 : x1 + 4, y + bar / 2, *v < 0 ? "end" : "start",
                 format_value(*v), " font-size=\"11\"");
        }
    }
    for (size_t s = 0; s < c.series.size(); ++s) {
        const auto [x, y] = legend.at[s];
        out << "<rect x=\"" << px(x) << "\" y=\"" << px(y - 6)
            << "\" width=\"22\" height=\"12\" fill=\"" << fill(s) << "\" stroke=\"" << colour(s)
            << "\"/>\n";
        text(out, x + 30, y, "start", c.series[s].name);
    }
    close_figure(out, c.title, notes);
}

} // namespace cmdbench::svg
