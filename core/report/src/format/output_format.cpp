// Lookups in the format registry (format_registry.cpp holds the entries).
#include "cmdbench/report/output_format.hpp"

#include "results/string_suffix.hpp"

#include <stdexcept>

namespace cmdbench {

std::vector<const OutputFormat *> formats_for(unsigned uses) {
    std::vector<const OutputFormat *> out;
    for (const OutputFormat &f : output_formats())
        if ((f.uses & uses) == uses) out.push_back(&f);
    return out;
}

std::string format_names(const std::vector<const OutputFormat *> &formats, const char *sep,
                         const char *last) {
    std::string names;
    for (size_t i = 0; i < formats.size(); ++i) {
        if (i > 0) names += i + 1 == formats.size() ? last : sep;
        names += formats[i]->name;
    }
    return names;
}

std::string file_formats_text() {
    std::string text;
    for (const OutputFormat *f : formats_for(kUseFile)) {
        if (f->extensions.empty()) continue;
        text += std::string(f->title) + " for *" + f->extensions[0];
        for (size_t i = 1; i < f->extensions.size(); ++i)
            text += " or *" + f->extensions[i];
        text += ", ";
    }
    return text + "else a table";
}

const OutputFormat &parse_output_format(const std::string &name,
                                        const std::vector<const OutputFormat *> &allowed) {
    for (const OutputFormat *f : allowed)
        if (name == f->name) return *f;
    throw std::invalid_argument("--format must be one of " + format_names(allowed, ", ", ", ") +
                                " (got '" + name + "')");
}

const OutputFormat &format_named(const std::string &name) {
    for (const OutputFormat &f : output_formats())
        if (name == f.name) return f;
    throw std::logic_error("no output format named " + name);
}

const OutputFormat &format_of_path(const std::string &path) {
    for (const OutputFormat *f : formats_for(kUseFile))
        for (const std::string &ext : f->extensions)
            if (ends_with(path, ext)) return *f;
    return format_named("table");
}

std::unique_ptr<Reporter> reporter_for(const OutputFormat &format, const Report &report) {
    if (report.matrix && format.make_matrix) return format.make_matrix();
    return format.make();
}

} // namespace cmdbench
