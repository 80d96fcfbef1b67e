#include "cmdbench/host/run/run_params.hpp"

#include <cstring>
#include <stdexcept>

namespace cmdbench {
namespace {

const cmdbench_param *find_decl(const cmdbench_param *params, uint32_t count,
                                const std::string &key) {
    for (uint32_t i = 0; i < count; ++i)
        if (key == params[i].name) return &params[i];
    return nullptr;
}

void add_defaults(std::map<std::string, ParamValue> &out, const cmdbench_param *params,
                  uint32_t count, const std::string &owner) {
    for (uint32_t i = 0; i < count; ++i) {
        const cmdbench_param &p = params[i];
        if (out.count(p.name)) continue;
        if (!p.default_value)
            throw std::runtime_error("missing required parameter '" + std::string(p.name) +
                                     "' for " + owner);
        out[p.name] = parse_text(p, p.default_value).value(); // checked at load
    }
}

} // namespace

WireParams params_to_wire(const RunSpec &spec, bool remote) {
    WireParams w;
    auto sent = [&](const std::string &k) { return !remote || !spec.client_only_params.count(k); };
    for (const auto &[k, v] : spec.test_params)
        if (sent(k)) w.emplace_back(k, to_text(v));
    for (const auto &[k, v] : spec.transport_params)
        if (!spec.test_params.count(k) && sent(k)) w.emplace_back(k, to_text(v));
    return w;
}

std::map<std::string, ParamValue> params_from_wire(const cmdbench_test *test,
                                                   const cmdbench_transport *transport,
                                                   const WireParams &wire) {
    std::map<std::string, ParamValue> out;
    for (const auto &[key, text] : wire) {
        const cmdbench_param *decl = find_decl(test->params, test->param_count, key);
        if (!decl && transport) decl = find_decl(transport->params, transport->param_count, key);
        if (!decl)
            throw std::runtime_error(
                "parameter '" + key + "' is not known to test '" + test->name + "'" +
                (transport ? std::string(" or transport '") + transport->name + "'" : "") +
                " here (different plugin versions?)");
        auto parsed = parse_text(*decl, text);
        if (!parsed) throw std::runtime_error("parameter '" + key + "': " + parsed.error());
        if (const Status fits = check_value(*decl, *parsed); !fits)
            throw std::runtime_error("parameter '" + key + "' " + fits.error());
        out[key] = *parsed;
    }
    add_defaults(out, test->params, test->param_count, std::string("test '") + test->name + "'");
    if (transport)
        add_defaults(out, transport->params, transport->param_count,
                     std::string("transport '") + transport->name + "'");
    return out;
}

int32_t status_code(RunStatus s) {
    switch (s) {
    case RunStatus::Ok:
        return CMDBENCH_OK;
    case RunStatus::Skipped:
        return CMDBENCH_ERR_SKIP;
    case RunStatus::TimedOut:
        return CMDBENCH_ERR_TIMEOUT;
    case RunStatus::Interrupted:
        return CMDBENCH_ERR_CANCELLED;
    case RunStatus::Failed:
        break;
    }
    return CMDBENCH_ERR;
}

RunStatus status_from_code(int32_t code) {
    switch (code) {
    case CMDBENCH_OK:
        return RunStatus::Ok;
    case CMDBENCH_ERR_SKIP:
        return RunStatus::Skipped;
    case CMDBENCH_ERR_TIMEOUT:
        return RunStatus::TimedOut;
    case CMDBENCH_ERR_CANCELLED:
        return RunStatus::Interrupted;
    default:
        return RunStatus::Failed;
    }
}

} // namespace cmdbench
