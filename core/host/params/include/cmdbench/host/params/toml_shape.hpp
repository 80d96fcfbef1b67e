// Bounds on the shape of TOML text, checked before toml++ sees it. toml++
// builds (and later walks) one nested table per segment of a dotted key
// (`a.b.c = 1`, `[a.b.c]`), recursively and with no limit of its own, so
// some ten thousand segments overflow the stack; its nesting limit (256)
// only covers arrays and inline tables. The scan is linear and needs no
// parse: strings and comments are skipped, dots and brackets counted.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cmdbench {

// Scenario keys are a few segments deep (`defaults.size`, `[[run]]`).
constexpr size_t kMaxTomlKeySegments = 32;
// Tables (one per key segment), arrays and inline tables inside each other,
// counted from the root: far past any scenario, far below a deep stack.
constexpr size_t kMaxTomlDepth = 128;

struct TomlShapeError {
    size_t line = 0;   // 1-based
    size_t column = 0; // 1-based, in bytes
    std::string message;
};

// Where `text` first goes past a bound, or nothing when it stays within them.
std::optional<TomlShapeError> toml_shape_error(std::string_view text);

} // namespace cmdbench
