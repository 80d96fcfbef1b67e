// Typed parameter values (see params.hpp). Text is parsed as the value of a
// one-key TOML document, so the scenario file and --set share one syntax.
#include "cmdbench/host/params/params.hpp"

#include "cmdbench/host/params/toml_kind.hpp"
#include "cmdbench/host/params/toml_shape.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string_view>
#include <toml++/toml.h>

namespace cmdbench {
namespace {

// What a declared type wants, as in "expected an integer".
std::string wanted_kind(uint32_t param_type) {
    switch (param_type) {
    case CMDBENCH_PARAM_BOOL:
        return "a boolean";
    case CMDBENCH_PARAM_INT:
        return "an integer";
    case CMDBENCH_PARAM_DOUBLE:
        return "a number";
    case CMDBENCH_PARAM_STRING:
        return "a string";
    case CMDBENCH_PARAM_INT_LIST:
        return "an integer or an array of integers";
    default:
        return "a value of unknown type";
    }
}

// What a ParamValue holds, in the same words as node_kind.
std::string value_kind(const ParamValue &v) {
    switch (v.index()) {
    case 0:
        return "a boolean";
    case 1:
        return "an integer";
    case 2:
        return "a float";
    case 3:
        return "a string";
    default:
        return "an integer list";
    }
}

// Shortest text that reads back as the same double ("0.5", "1e+20", "3").
std::string number_text(double d) {
    if (std::isnan(d)) return "nan";
    if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, d);
    return std::string(buf, res.ptr);
}

std::string quote(const std::string &s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (c < 0x20 || c == 0x7f) {
                char esc[8];
                std::snprintf(esc, sizeof esc, "\\u%04x", c);
                out += esc;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out + "\"";
}

std::string int_range_error(const cmdbench_param &decl, int64_t v) {
    if (v >= decl.min_int && v <= decl.max_int) return {};
    return "must be in " + range_text(decl) + ", got " + std::to_string(v);
}

std::string list_error(const cmdbench_param &decl, const std::vector<int64_t> &list) {
    if (list.empty()) return "must not be empty";
    for (size_t i = 0; i < list.size(); ++i) {
        std::string err = int_range_error(decl, list[i]);
        if (!err.empty()) return "element " + std::to_string(i + 1) + " " + err;
    }
    return {};
}

// Written so that NaN fails too. NaN and infinities are refused whatever the
// bounds: where a bound is infinite, "[-inf, inf]" would not say what is wrong.
std::string double_range_error(const cmdbench_param &decl, double v) {
    if (std::isfinite(v) && v >= decl.min_double && v <= decl.max_double) return {};
    const bool unbounded = std::isinf(decl.min_double) && std::isinf(decl.max_double);
    if (!std::isfinite(v) && (std::isinf(decl.min_double) || std::isinf(decl.max_double)))
        return "must be a finite number" + (unbounded ? "" : " in " + range_text(decl)) + ", got " +
               number_text(v);
    return "must be in " + range_text(decl) + ", got " + number_text(v);
}

std::string choice_error(const cmdbench_param &decl, const std::string &v) {
    if (!decl.choices) return {};
    std::string_view all = decl.choices;
    for (size_t start = 0;;) {
        size_t bar = all.find('|', start);
        if (all.substr(start, bar - start) == v) return {};
        if (bar == std::string_view::npos) break;
        start = bar + 1;
    }
    return "must be one of " + std::string(all) + ", got " + quote(v);
}

// Converts a parsed TOML node to the declared type, or returns the error.
Expected<ParamValue> from_node(const cmdbench_param &decl, const toml::node &n) {
    auto mismatch = [&] {
        return unexpected("expected " + wanted_kind(decl.type) + ", got " + node_kind(n));
    };
    switch (decl.type) {
    case CMDBENCH_PARAM_BOOL:
        if (auto b = n.value_exact<bool>()) return ParamValue{*b};
        return mismatch();
    case CMDBENCH_PARAM_INT:
        if (auto i = n.value_exact<int64_t>()) return ParamValue{*i};
        return mismatch();
    case CMDBENCH_PARAM_DOUBLE:
        if (auto d = n.value_exact<double>()) return ParamValue{*d};
        if (auto i = n.value_exact<int64_t>()) return ParamValue{static_cast<double>(*i)};
        return mismatch();
    case CMDBENCH_PARAM_STRING:
        if (auto s = n.value_exact<std::string>()) return ParamValue{*s};
        return mismatch();
    case CMDBENCH_PARAM_INT_LIST: {
        if (auto i = n.value_exact<int64_t>()) return ParamValue{std::vector<int64_t>{*i}};
        const toml::array *arr = n.as_array();
        if (!arr) return mismatch();
        std::vector<int64_t> list;
        for (size_t k = 0; k < arr->size(); ++k) {
            auto i = (*arr)[k].value_exact<int64_t>();
            if (!i)
                return unexpected("element " + std::to_string(k + 1) + " must be an integer, got " +
                                  node_kind((*arr)[k]));
            list.push_back(*i);
        }
        return ParamValue{std::move(list)};
    }
    default:
        return unexpected("unknown parameter type " + std::to_string(decl.type));
    }
}

} // namespace

std::string to_text(const ParamValue &v) {
    switch (v.index()) {
    case 0:
        return std::get<bool>(v) ? "true" : "false";
    case 1:
        return std::to_string(std::get<int64_t>(v));
    case 2: {
        std::string s = number_text(std::get<double>(v));
        // TOML needs a '.' or exponent to read it back as a float.
        if (s.find_first_of(".eni") == std::string::npos) s += ".0";
        return s;
    }
    case 3:
        return quote(std::get<std::string>(v));
    default: {
        std::string out = "[";
        for (int64_t i : std::get<std::vector<int64_t>>(v)) {
            if (out.size() > 1) out += ", ";
            out += std::to_string(i);
        }
        return out + "]";
    }
    }
}

Status check_value_text(const std::string &text) {
    if (text.size() > kMaxValueTextBytes)
        return unexpected("is " + std::to_string(text.size()) +
                          " bytes long; a value may have at most " +
                          std::to_string(kMaxValueTextBytes));
    // Scanned as parse_text_unchecked parses it: as the value of a key.
    if (auto bad = toml_shape_error("v = " + text))
        return unexpected("is refused at byte " + std::to_string(bad->column - 4) + ": " +
                          bad->message);
    return {};
}

Expected<ParamValue> parse_text_unchecked(const cmdbench_param &decl, const std::string &text) {
    if (const Status fit = check_value_text(text); !fit)
        return unexpected("the value " + fit.error());
    std::string doc = "v = " + text;
    toml::table tbl;
    bool parsed = text.find_first_of("\r\n") == std::string::npos;
    if (parsed) {
        try {
            tbl = toml::parse(std::string_view(doc), std::string_view("value"));
        } catch (const toml::parse_error &) {
            parsed = false;
        }
    }
    // A bare word is taken as a string, so `--set mode=fast` needs no quotes;
    // text that starts like a quoted string or an array keeps its error.
    bool bare = text.empty() || std::string_view("\"'[{").find(text[0]) == std::string_view::npos;
    if (!parsed && bare && decl.type == CMDBENCH_PARAM_STRING) return ParamValue{text};
    if (!parsed) {
        std::string got = text.empty() ? "nothing" : "'" + text + "', which is not a TOML value";
        return unexpected("expected " + wanted_kind(decl.type) + ", got " + got);
    }
    return from_node(decl, *tbl.get("v"));
}

Expected<ParamValue> parse_text(const cmdbench_param &decl, const std::string &text) {
    auto converted = parse_text_unchecked(decl, text);
    if (converted)
        if (const Status fits = check_value(decl, *converted); !fits)
            return unexpected(fits.error());
    return converted;
}

Status check_value(const cmdbench_param &decl, const ParamValue &v) {
    std::string err;
    const auto *i = std::get_if<int64_t>(&v);
    switch (decl.type) {
    case CMDBENCH_PARAM_BOOL:
        if (!std::holds_alternative<bool>(v)) err = "expected a boolean, got " + value_kind(v);
        break;
    case CMDBENCH_PARAM_INT:
        err = i ? int_range_error(decl, *i) : "expected an integer, got " + value_kind(v);
        break;
    case CMDBENCH_PARAM_DOUBLE:
        // An integer stands for the same number, as parse_text accepts it.
        if (const auto *d = std::get_if<double>(&v))
            err = double_range_error(decl, *d);
        else if (i)
            err = double_range_error(decl, static_cast<double>(*i));
        else
            err = "expected a number, got " + value_kind(v);
        break;
    case CMDBENCH_PARAM_STRING:
        if (const auto *s = std::get_if<std::string>(&v))
            err = choice_error(decl, *s);
        else
            err = "expected a string, got " + value_kind(v);
        break;
    case CMDBENCH_PARAM_INT_LIST:
        if (const auto *l = std::get_if<std::vector<int64_t>>(&v))
            err = list_error(decl, *l);
        else if (i)
            err = int_range_error(decl, *i);
        else
            err = "expected an integer or an array of integers, got " + value_kind(v);
        break;
    default:
        err = "unknown parameter type " + std::to_string(decl.type);
    }
    if (err.empty()) return {};
    return unexpected(err);
}

const char *type_name(uint32_t param_type) {
    switch (param_type) {
    case CMDBENCH_PARAM_BOOL:
        return "bool";
    case CMDBENCH_PARAM_INT:
        return "int";
    case CMDBENCH_PARAM_DOUBLE:
        return "float";
    case CMDBENCH_PARAM_STRING:
        return "string";
    case CMDBENCH_PARAM_INT_LIST:
        return "int list";
    default:
        return "unknown";
    }
}

std::string range_text(const cmdbench_param &decl) {
    switch (decl.type) {
    case CMDBENCH_PARAM_INT:
    case CMDBENCH_PARAM_INT_LIST:
        return "[" + std::to_string(decl.min_int) + ", " + std::to_string(decl.max_int) + "]";
    case CMDBENCH_PARAM_DOUBLE:
        return "[" + number_text(decl.min_double) + ", " + number_text(decl.max_double) + "]";
    case CMDBENCH_PARAM_STRING:
        return decl.choices ? "one of " + std::string(decl.choices) : std::string();
    default:
        return {};
    }
}

namespace {

const cmdbench_param *find_decl(const cmdbench_param *params, uint32_t count,
                                const std::string &key) {
    for (uint32_t i = 0; i < count; ++i)
        if (key == params[i].name) return &params[i];
    return nullptr;
}

Status add_defaults(ParamMap &out, const cmdbench_param *params, uint32_t count,
                    const std::string &owner) {
    for (uint32_t i = 0; i < count; ++i) {
        const cmdbench_param &p = params[i];
        if (out.count(p.name)) continue;
        if (!p.default_value)
            return unexpected("missing required parameter '" + std::string(p.name) + "' for " +
                              owner);
        out[p.name] = parse_text(p, p.default_value).value(); // checked at load
    }
    return {};
}

} // namespace

WireParams params_as_text(const ParamMap &first, const ParamMap &second,
                          const std::set<std::string> &omit) {
    WireParams out;
    for (const auto &[k, v] : first)
        if (!omit.count(k)) out.emplace_back(k, to_text(v));
    for (const auto &[k, v] : second)
        if (!first.count(k) && !omit.count(k)) out.emplace_back(k, to_text(v));
    return out;
}

Expected<ParamMap> params_from_text(const cmdbench_test *test, const cmdbench_transport *transport,
                                    const WireParams &sent) {
    ParamMap out;
    for (const auto &[key, text] : sent) {
        const cmdbench_param *decl = find_decl(test->params, test->param_count, key);
        if (!decl && transport) decl = find_decl(transport->params, transport->param_count, key);
        if (!decl)
            return unexpected(
                "parameter '" + key + "' is not known to test '" + test->name + "'" +
                (transport ? std::string(" or transport '") + transport->name + "'" : "") +
                " here (different plugin versions?)");
        auto parsed = parse_text(*decl, text);
        if (!parsed) return unexpected("parameter '" + key + "': " + parsed.error());
        out[key] = *parsed;
    }
    if (Status ok = add_defaults(out, test->params, test->param_count,
                                 std::string("test '") + test->name + "'");
        !ok)
        return unexpected(ok.error());
    if (transport)
        if (Status ok = add_defaults(out, transport->params, transport->param_count,
                                     std::string("transport '") + transport->name + "'");
            !ok)
            return unexpected(ok.error());
    return out;
}

} // namespace cmdbench
