#include "cmdbench/host/plugins/plugin_listing.hpp"

#include "cmdbench/host/params/params.hpp"

#include <nlohmann/json.hpp>

namespace cmdbench {
namespace {

std::string abi_of(const cmdbench_plugin &p) {
    return std::to_string(p.abi_major) + "." + std::to_string(p.abi_minor);
}

void params_text(std::ostream &out, const cmdbench_param *params, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) {
        const cmdbench_param &p = params[i];
        out << "      " << p.name << " (" << type_name(p.type) << ", default "
            << (p.default_value ? p.default_value : "required");
        std::string range = range_text(p);
        if (!range.empty()) out << ", " << range;
        out << ")";
        if (p.help) out << ": " << p.help;
        out << "\n";
    }
}

nlohmann::ordered_json params_json(const cmdbench_param *params, uint32_t count) {
    auto arr = nlohmann::ordered_json::array();
    for (uint32_t i = 0; i < count; ++i) {
        const cmdbench_param &p = params[i];
        nlohmann::ordered_json j;
        j["name"] = p.name;
        j["type"] = type_name(p.type);
        j["default"] = p.default_value ? nlohmann::ordered_json(p.default_value) : nullptr;
        if (p.type == CMDBENCH_PARAM_INT || p.type == CMDBENCH_PARAM_INT_LIST) {
            j["min"] = p.min_int;
            j["max"] = p.max_int;
        } else if (p.type == CMDBENCH_PARAM_DOUBLE) {
            j["min"] = p.min_double;
            j["max"] = p.max_double;
        } else if (p.type == CMDBENCH_PARAM_STRING && p.choices) {
            j["choices"] = p.choices;
        }
        j["help"] = p.help ? p.help : "";
        arr.push_back(j);
    }
    return arr;
}

// One transport or test of a plugin: name, what its flags say, description
// and parameters.
void entry_text(std::ostream &out, const char *kind, const char *name, const char *flag_note,
                const char *description, const cmdbench_param *params, uint32_t param_count) {
    out << "  " << kind << " " << name << flag_note;
    if (description) out << ": " << description;
    out << "\n";
    params_text(out, params, param_count);
}

} // namespace

void list_plugins_text(std::ostream &out, const Registry &registry) {
    for (const auto &lp : registry.plugins()) {
        const cmdbench_plugin &p = *lp.desc;
        out << p.name << " " << p.version << " (ABI " << abi_of(p) << ") " << lp.file << "\n";
        if (p.description) out << "  " << p.description << "\n";
        for (uint32_t i = 0; i < p.transport_count; ++i) {
            const cmdbench_transport &t = *p.transports[i];
            const bool rdma = t.flags & CMDBENCH_TRANSPORT_NEEDS_RDMA;
            entry_text(out, "transport", t.name, rdma ? " [needs an RDMA device]" : "",
                       t.description, t.params, t.param_count);
        }
        for (uint32_t i = 0; i < p.test_count; ++i) {
            const cmdbench_test &t = *p.tests[i];
            const bool over = t.flags & CMDBENCH_TEST_USES_TRANSPORT;
            entry_text(out, "test", t.name, over ? " [over a transport]" : "", t.description,
                       t.params, t.param_count);
        }
    }
}

void list_plugins_json(std::ostream &out, const Registry &registry,
                       const std::vector<LoadFailure> &failures) {
    nlohmann::ordered_json doc;
    doc["plugins"] = nlohmann::ordered_json::array();
    for (const auto &lp : registry.plugins()) {
        const cmdbench_plugin &p = *lp.desc;
        nlohmann::ordered_json j;
        j["name"] = p.name;
        j["version"] = p.version;
        j["abi"] = abi_of(p);
        j["file"] = lp.file;
        j["description"] = p.description ? p.description : "";
        j["transports"] = nlohmann::ordered_json::array();
        for (uint32_t i = 0; i < p.transport_count; ++i) {
            const cmdbench_transport &t = *p.transports[i];
            j["transports"].push_back(
                {{"name", t.name},
                 {"description", t.description ? t.description : ""},
                 {"needs_rdma", bool(t.flags & CMDBENCH_TRANSPORT_NEEDS_RDMA)},
                 {"params", params_json(t.params, t.param_count)}});
        }
        j["tests"] = nlohmann::ordered_json::array();
        for (uint32_t i = 0; i < p.test_count; ++i) {
            const cmdbench_test &t = *p.tests[i];
            j["tests"].push_back({{"name", t.name},
                                  {"description", t.description ? t.description : ""},
                                  {"uses_transport", bool(t.flags & CMDBENCH_TEST_USES_TRANSPORT)},
                                  {"params", params_json(t.params, t.param_count)}});
        }
        doc["plugins"].push_back(j);
    }
    doc["refused"] = nlohmann::ordered_json::array();
    for (const auto &f : failures)
        doc["refused"].push_back({{"file", f.file}, {"reason", f.reason}});
    out << doc.dump(2) << "\n";
}

} // namespace cmdbench
