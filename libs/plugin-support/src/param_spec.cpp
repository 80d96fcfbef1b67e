// The non-template parts of param_spec.hpp and choice.hpp.
#include "cmdbench/plugin-support/param_spec.hpp"

#include <cstdlib>
#include <stdexcept>

namespace cmdbench::support {

void bad_choice(const ParamReader &in, const char *key, const std::string &text,
                const std::string &allowed) {
    in.bad(std::string("parameter ") + key + ": \"" + text + "\" is not one of " + allowed);
}

std::string bool_text(bool value) {
    return value ? "true" : "false";
}

std::string quoted_text(const std::string &value) {
    return "\"" + value + "\"";
}

std::string int_list_text(const std::vector<int64_t> &values) {
    std::string out = "[";
    for (size_t i = 0; i < values.size(); ++i)
        out += (i ? ", " : "") + std::to_string(values[i]);
    return out + "]";
}

double number_of(const std::string &text) {
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0')
        throw std::invalid_argument("parameter default \"" + text + "\" is not a number");
    return value;
}

} // namespace cmdbench::support
