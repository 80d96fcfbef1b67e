// Parts of a JSON document written on their own (json_slots.hpp).
#include "format/json_slots.hpp"

#include <nlohmann/json.hpp>
#include <ostream>
#include <string_view>

namespace cmdbench {

void write_with_slots(std::ostream &out, const std::string &text,
                      const std::vector<JsonSlot> &slots) {
    size_t from = 0;
    for (const JsonSlot &slot : slots) {
        const std::string key = slot.key;
        const std::string marker = key + "\"" + slot.placeholder + "\"";
        const size_t at = text.find(marker, from);
        if (at == std::string::npos) continue;
        out << std::string_view(text).substr(from, at + key.size() - from);
        slot.write(out);
        from = at + marker.size();
    }
    out << std::string_view(text).substr(from);
}

JsonSlot verdicts_slot(const VerdictStream &verdicts) {
    return {"\n    \"verdicts\": ", kVerdictsPlaceholder, [verdicts](std::ostream &out) {
                using Json = nlohmann::ordered_json;
                out << "[";
                bool first = true;
                verdicts([&](const ExpectVerdict &v) {
                    out << (first ? "\n      " : ",\n      ")
                        << verdict_json(v).dump(-1, ' ', false, Json::error_handler_t::replace);
                    first = false;
                });
                out << (first ? "]" : "\n    ]");
            }};
}

} // namespace cmdbench
