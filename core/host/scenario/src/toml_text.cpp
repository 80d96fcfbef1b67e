#include "toml_text.hpp"

#include "cmdbench/host/params/params.hpp"

#include <sstream>

namespace cmdbench {

std::string node_text(const toml::node &n) {
    if (const toml::table *t = n.as_table()) {
        std::string out;
        for (auto &&[key, value] : *t)
            out += std::string(out.empty() ? "" : ", ") +
                   to_text(ParamValue{std::string(key.str())}) + " = " + node_text(value);
        return "{" + out + "}";
    }
    if (const toml::array *arr = n.as_array()) {
        std::string out = "[";
        for (const toml::node &e : *arr)
            out += (out.size() > 1 ? ", " : "") + node_text(e);
        return out + "]";
    }
    if (auto b = n.value_exact<bool>()) return to_text(ParamValue{*b});
    if (auto i = n.value_exact<int64_t>()) return to_text(ParamValue{*i});
    if (auto d = n.value_exact<double>()) return to_text(ParamValue{*d});
    if (auto s = n.value_exact<std::string>()) return to_text(ParamValue{*s});
    std::ostringstream os;
    n.visit([&](const auto &v) {
        if constexpr (toml::is_value<decltype(v)>) os << v;
    });
    return os.str();
}

} // namespace cmdbench
