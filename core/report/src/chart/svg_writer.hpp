// The SVG markup the report's charts are made of: elements built from
// escaped attributes and text, written one per line. The charts
// (svg_line_chart.cpp, svg_bar_chart.cpp) say what to draw; this says how
// it is spelled.
#pragma once
#include "cmdbench/report/svg_plot.hpp" // escape

#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cmdbench::svg {

// A coordinate or length as the charts print it: one decimal.
std::string px(double v);

// Attributes given as a list, e.g. a text's extra style.
using Attrs = std::vector<std::pair<const char *, std::string>>;

// One element: its name and attributes, every value escaped as it is added.
class Tag {
  public:
    explicit Tag(std::string_view name);
    Tag &attr(std::string_view name, std::string_view value);
    Tag &attr(std::string_view name, double coordinate); // as px()
    Tag &attrs(const Attrs &list);

    std::string empty() const;                          // <name .../>
    std::string open() const;                           // <name ...>
    std::string with_text(std::string_view text) const; // <name ...>text</name>

  private:
    std::string name_;
    std::string start_; // "<name a=\"v\" ..."
};

// Writes elements to a stream, one per line.
class Writer {
  public:
    explicit Writer(std::ostream &out) : out_(out) {}
    void line(std::string_view markup) { out_ << markup << '\n'; }

    // A path with its data `d` and style.
    void path(const std::string &d, const Attrs &style);
    // One line of text centred vertically on y, anchored start/middle/end at x.
    void text(double x, double y, const char *anchor, std::string_view s, const Attrs &extra = {});

  private:
    std::ostream &out_;
};

// Path data: "M x y", and the segments the charts use.
std::string move_to(double x, double y);
std::string vertical_to(double y);   // " Vy"
std::string horizontal_to(double x); // " Hx"

} // namespace cmdbench::svg
