#include "chart/svg_writer.hpp"

#include "format/markup_entity.hpp"

#include <cstdio>

namespace cmdbench::svg {

std::string escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        if (const char *entity = markup_entity(c, true)) {
            out += entity;
            continue;
        }
        switch (c) {
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

std::string px(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

Tag::Tag(std::string_view name) : name_(name), start_("<" + name_) {}

Tag &Tag::attr(std::string_view name, std::string_view value) {
    start_ += ' ';
    start_ += name;
    start_ += "=\"" + escape(value) + '"';
    return *this;
}

Tag &Tag::attr(std::string_view name, double coordinate) {
    return attr(name, px(coordinate));
}

Tag &Tag::attrs(const Attrs &list) {
    for (const auto &[name, value] : list)
        attr(name, value);
    return *this;
}

std::string Tag::empty() const {
    return start_ + "/>";
}

std::string Tag::open() const {
    return start_ + ">";
}

std::string Tag::with_text(std::string_view text) const {
    return open() + escape(text) + "</" + name_ + ">";
}

void Writer::path(const std::string &d, const Attrs &style) {
    line(Tag("path").attr("d", d).attrs(style).empty());
}

void Writer::text(double x, double y, const char *anchor, std::string_view s, const Attrs &extra) {
    line(Tag("text")
             .attr("x", x)
             .attr("y", y)
             .attr("dy", "0.35em")
             .attr("text-anchor", anchor)
             .attrs(extra)
             .with_text(s));
}

std::string move_to(double x, double y) {
    return "M" + px(x) + ' ' + px(y);
}

std::string vertical_to(double y) {
    return " V" + px(y);
}

std::string horizontal_to(double x) {
    return " H" + px(x);
}

} // namespace cmdbench::svg
