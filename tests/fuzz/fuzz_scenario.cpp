// libFuzzer target: the scenario loader on arbitrary text, against a registry
// of the plugins this tree ships (loaded from the build's plugin directory).
// Only ScenarioError may escape parse_scenario. Lines "#--set key=value"
// (TOML comments, so seeds stay valid scenarios) are passed as --set
// overrides. A scenario that loads must load again from its own to_toml()
// and print the same text.
#include "cmdbench/host/plugins/plugin_loader.hpp"
#include "cmdbench/host/plugins/registry.hpp"
#include "cmdbench/host/scenario/scenario.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace cmdbench;

namespace {

const Registry &shipped_plugins() {
    static const Registry registry = [] {
        Registry r;
        for (const LoadFailure &f : load_plugins(r, {CMDBENCH_PLUGIN_DIR}, true))
            std::fprintf(stderr, "fuzz_scenario: plugin refused: %s\n", f.reason.c_str());
        if (r.plugins().empty()) {
            std::fprintf(stderr, "fuzz_scenario: no plugins in %s\n", CMDBENCH_PLUGIN_DIR);
            std::abort();
        }
        return r;
    }();
    return registry;
}

std::vector<std::string> overrides_in(const std::string &text) {
    static const std::string kMark = "#--set ";
    std::vector<std::string> out;
    for (size_t at = 0; (at = text.find(kMark, at)) != std::string::npos;) {
        if (at == 0 || text[at - 1] == '\n') {
            const size_t end = text.find('\n', at);
            out.push_back(text.substr(at + kMark.size(), end == std::string::npos
                                                             ? std::string::npos
                                                             : end - at - kMark.size()));
        }
        at += kMark.size();
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const Registry &registry = shipped_plugins();
    const std::string text(reinterpret_cast<const char *>(data), size);
    Scenario s;
    try {
        s = parse_scenario(text, "fuzz.toml", registry, overrides_in(text));
    } catch (const ScenarioError &) {
        return 0;
    }
    const std::string effective = to_toml(s);
    try {
        const Scenario again = parse_scenario(effective, "effective.toml", registry, {});
        if (to_toml(again) != effective) {
            std::fprintf(stderr, "to_toml is not stable:\n%s\n---\n%s\n", effective.c_str(),
                         to_toml(again).c_str());
            std::abort();
        }
    } catch (const ScenarioError &e) {
        std::fprintf(stderr, "to_toml output does not load: %s\n%s\n", e.what(), effective.c_str());
        std::abort();
    }
    return 0;
}
