#include "cmdbench/host/run/crash_context.hpp"

namespace cmdbench {
namespace {

Blame blame_item(const Registry &registry, const void *item, const char *kind, const char *name,
                 const char *hook, const std::string &run) {
    std::string plugin = registry.plugin_name_of(item);
    Blame b;
    b.who = plugin.empty() ? std::string("a plugin") : "plugin '" + plugin + "'";
    b.where = std::string("in ") + kind + " '" + name + "', hook " + hook;
    if (!run.empty()) b.where += ", " + run;
    return b;
}

} // namespace

std::string run_label(const std::string &name, unsigned repeat, unsigned repeats) {
    std::string s = "run '" + name + "'";
    if (repeats > 1)
        s += " (repeat " + std::to_string(repeat) + " of " + std::to_string(repeats) + ")";
    return s;
}

Blame blame(const Registry &registry, const cmdbench_test *test, const char *hook,
            const std::string &run) {
    return blame_item(registry, test, "test", test->name, hook, run);
}

Blame blame(const Registry &registry, const cmdbench_transport *transport, const char *hook,
            const std::string &run) {
    return blame_item(registry, transport, "transport", transport->name, hook, run);
}

} // namespace cmdbench
