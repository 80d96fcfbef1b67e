#include "cmdbench/host/serve/serve_label.hpp"

#include "cmdbench/control/printable_text.hpp"
#include "cmdbench/host/plugins/host_services.hpp"

#include <cstdlib>

namespace cmdbench {
namespace {

constexpr const char *kLabelVariable = "CMDBENCH_SERVE_LABEL";

const char *label() {
    const char *l = std::getenv(kLabelVariable);
    return l && *l ? l : nullptr;
}

} // namespace

void label_servers(const std::string &text) {
    setenv(kLabelVariable, text.c_str(), 1);
}

std::string serve_log_prefix() {
    const char *l = label();
    return l ? "cmdbench serve of " + printable_text(l) + ": " : "cmdbench serve: ";
}

bool serve_logs_run_failures() {
    return !label() || plugin_log_level() >= CMDBENCH_LOG_INFO;
}

} // namespace cmdbench
