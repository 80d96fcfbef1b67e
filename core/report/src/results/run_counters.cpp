// Counter deltas in results (run_counters.hpp): the sums the verdicts judge,
// the lines the tables show, and the JSON both ways.
#include "cmdbench/report/run_counters.hpp"

#include "cmdbench/control/printable_text.hpp"

#include <nlohmann/json.hpp>

namespace cmdbench {
namespace {

using Json = nlohmann::ordered_json;

std::string signed_text(int64_t v) {
    return (v > 0 ? "+" : "") + std::to_string(v);
}

// "client rdma rxe0/1 completer_retry_err +12, ..." for one class, and
// the class's sum; "" when every counter of it is 0.
std::string class_items(const RunCounters &c, CounterClass k, int64_t &sum) {
    std::string items;
    for (const auto &[side, counters] :
         {std::pair<const char *, const std::optional<SideCounters> &>{"client", c.client},
          {"server", c.server}}) {
        if (!counters || (c.same_machine && std::string(side) == "server")) continue;
        for (const auto &[source, values] : *counters) {
            if (!values) continue;
            for (const auto &[name, delta] : *values) {
                if (delta == 0 || counter_class(name) != k) continue;
                sum += delta;
                // One machine: one set of counters, no side to name.
                const std::string who = c.same_machine ? "" : std::string(side) + " ";
                // Names from a server are its text: shown escaped.
                items += std::string(items.empty() ? "" : ", ") + who + printable_text(source) +
                         " " + printable_text(name) + " " + signed_text(delta);
            }
        }
    }
    return items;
}

} // namespace

std::optional<int64_t> counter_class_sum(const RunCounters &c, CounterClass k) {
    if (c.empty()) return std::nullopt;
    int64_t sum = 0;
    class_items(c, k, sum);
    return sum;
}

std::vector<std::string> counter_lines(const RunCounters &c) {
    std::vector<std::string> lines;
    for (CounterClass k :
         {CounterClass::Retransmits, CounterClass::Errors, CounterClass::Congestion}) {
        int64_t sum = 0;
        const std::string items = class_items(c, k, sum);
        if (!items.empty())
            lines.push_back(std::string("counters: ") + to_string(k) + " " + signed_text(sum) +
                            ": " + items);
    }
    return lines;
}

Json side_counters_json(const SideCounters &s) {
    Json out = Json::object();
    for (const auto &[source, values] : s) {
        if (!values) {
            out[source] = nullptr;
            continue;
        }
        Json deltas = Json::object();
        for (const auto &[name, delta] : *values)
            deltas[name] = delta;
        out[source] = std::move(deltas);
    }
    return out;
}

std::optional<SideCounters> side_counters_from_json(const Json &j) {
    if (!j.is_object()) return std::nullopt;
    SideCounters s;
    for (const auto &[source, values] : j.items()) {
        auto &slot = s[source];
        if (!values.is_object()) continue; // null: could not be read
        slot.emplace();
        for (const auto &[name, delta] : values.items())
            if (delta.is_number_integer()) (*slot)[name] = delta.get<int64_t>();
    }
    return s;
}

Json run_counters_json(const RunCounters &c) {
    Json out = Json::object();
    if (c.client) out["client"] = side_counters_json(*c.client);
    if (c.server) out["server"] = side_counters_json(*c.server);
    if (c.same_machine) out["same_machine"] = true;
    return out;
}

RunCounters run_counters_from_json(const Json &j) {
    RunCounters c;
    if (!j.is_object()) return c;
    if (j.contains("client")) c.client = side_counters_from_json(j.at("client"));
    if (j.contains("server")) c.server = side_counters_from_json(j.at("server"));
    c.same_machine = j.contains("same_machine") && j.at("same_machine") == true;
    return c;
}

std::string wire_counters_text(const SideCounters &s, const std::string &machine) {
    const Json j = {{"machine", machine}, {"sources", side_counters_json(s)}};
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

WireCounters wire_counters_from_text(const std::string &text) {
    WireCounters w;
    try {
        const Json j = Json::parse(text);
        if (!j.is_object()) return w;
        if (j.contains("machine") && j.at("machine").is_string()) w.machine = j.at("machine");
        if (j.contains("sources")) w.sources = side_counters_from_json(j.at("sources"));
    } catch (const nlohmann::json::exception &) {
    }
    return w;
}

} // namespace cmdbench
