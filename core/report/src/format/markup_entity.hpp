// The character references that keep text from being read as markup, shared
// by the SVG charts (XML) and the Markdown report (HTML inline).
#pragma once

namespace cmdbench {

// "&amp;", "&lt;", "&gt;"; with `quotes` (inside an attribute value) also
// "&quot;" and "&#39;"; nullptr for a character that stands for itself.
inline const char *markup_entity(char c, bool quotes) {
    switch (c) {
    case '&':
        return "&amp;";
    case '<':
        return "&lt;";
    case '>':
        return "&gt;";
    case '"':
        return quotes ? "&quot;" : nullptr;
    case '\'':
        return quotes ? "&#39;" : nullptr;
    default:
        return nullptr;
    }
}

} // namespace cmdbench
