// A small SVG chart writer for the HTML report: line charts against message
// size and grouped horizontal bar charts. Each chart is a <figure> holding an
// inline <svg class="chart"> and a <figcaption>; the output has no script and
// no external reference, and every text it is given is escaped. The markup is
// well-formed XML, so the page can be checked with an XML parser.
#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace cmdbench::svg {

// Escapes & < > " ' for HTML/XML text and attribute values.
std::string escape(std::string_view text);

// One variant (transport): a value per x, or per bar category; nullopt = no
// value (a gap in a line, "n/a" for a bar).
struct Series {
    std::string name;
    std::vector<std::optional<double>> values;
    // Line charts only: the top of a whisker per x (e.g. p99 over a p50
    // point); empty = no whiskers.
    std::vector<std::optional<double>> whiskers;
};

enum class Scale { Linear, Log };

struct LineChart {
    std::string id;      // unique in the page: the figure's id, prefix of inner ids
    std::string title;   // caption and accessible name
    std::string x_title; // with unit
    std::string y_title; // with unit
    Scale y_scale = Scale::Linear;
    std::vector<double> x; // message sizes in bytes (log2 axis), one per value
    std::vector<Series> series;
    std::string note; // extra caption line, e.g. what the whiskers show
};

// Bars run horizontally so that long category names (connection steps) stay
// readable; one group of bars per category, one bar per series.
//
// On a Log value axis the bars start at the axis minimum, a power of ten at
// or below the smallest positive value, so a bar's length is proportional to
// log(value / minimum), not to the value. A value of 0 or less has no place
// on a log axis: it is printed where its bar would start, marked "left out",
// and counted in a caption note.
struct BarChart {
    std::string id;
    std::string title;
    std::string value_title; // value axis title, with unit
    Scale value_scale = Scale::Linear;
    std::vector<std::string> categories;
    std::vector<Series> series; // values per category
    std::string note;
};

void write_line_chart(std::ostream &out, const LineChart &chart);
void write_bar_chart(std::ostream &out, const BarChart &chart);

// Axis helpers, exposed for the tests. Ticks cover [lo, hi]: the first is <=
// lo and the last >= hi. Linear: steps of 1, 2, 2.5 or 5 times a power of
// ten, about five of them. Log (lo > 0): powers of ten, with 2 and 5 between
// them when the range is two decades or less.
std::vector<double> nice_ticks(double lo, double hi, Scale scale);
// Short tick text: 0.5, 20, 2500, 25k, 1.5M.
std::string tick_label(double value);
// A measured value with three significant digits (12.3, 0.500, 0.0456; 1234
// for larger values), as
// printed on bars and in the report's tables.
std::string format_value(double value);

} // namespace cmdbench::svg
