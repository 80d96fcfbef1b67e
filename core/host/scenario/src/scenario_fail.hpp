// A scenario error at a TOML node: "file:line:column: message".
#pragma once
#include "cmdbench/host/scenario/scenario.hpp"

#include <string>
#include <toml++/toml.h>

namespace cmdbench {

[[noreturn]] inline void fail_at_node(const std::string &path, const toml::source_region &where,
                                      const std::string &message) {
    throw ScenarioError(path + ":" + std::to_string(where.begin.line) + ":" +
                        std::to_string(where.begin.column) + ": " + message);
}

} // namespace cmdbench
