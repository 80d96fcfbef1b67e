// cmdbench-perftest: `cmdbench ib_write_bw [perftest options] [HOST]` and
// the seven other perftest tools; one executable, the tool chosen by the
// name it was started as (cmdbench-ib_write_bw, a link to this file).
#include "perftest_options.hpp"
#include "perftest_run.hpp"
#include "perftest_side.hpp"

#include <cstdio>
#include <exception>
#include <string>

namespace {

using namespace cmdbench::perftest_frontend;

// "cmdbench-ib_write_bw" or "ib_write_bw" (a path's last part).
const Tool *tool_of(const char *argv0) {
    std::string name = argv0 ? argv0 : "";
    const size_t slash = name.rfind('/');
    if (slash != std::string::npos) name = name.substr(slash + 1);
    if (name.rfind("cmdbench-", 0) == 0) name = name.substr(9);
    return find_tool(name);
}

std::string tool_names() {
    std::string names;
    for (const Tool &t : tools())
        names += std::string(names.empty() ? "" : ", ") + t.name;
    return names;
}

} // namespace

int main(int argc, char **argv) {
    const Tool *tool = tool_of(argc > 0 ? argv[0] : nullptr);
    if (!tool) {
        std::fprintf(stderr, "cmdbench-perftest: start me as one of %s (cmdbench NAME)\n",
                     tool_names().c_str());
        return kExitUsage;
    }
    Options options;
    try {
        options = parse_options(*tool, argc, argv);
    } catch (const UsageError &e) {
        std::fprintf(stderr, "cmdbench %s: %s\nTry 'cmdbench %s --help'.\n", tool->name, e.what(),
                     tool->name);
        return kExitUsage;
    }
    if (options.help) {
        std::printf("%s", usage_text(*tool).c_str());
        return kExitOk;
    }
    if (options.version) {
        std::printf("cmdbench %s (%s, perftest's options and output)\n", CMDBENCH_VERSION,
                    tool->name);
        return kExitOk;
    }
    try {
        return run_side(options);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "cmdbench %s: %s\n", tool->name, e.what());
        return kExitFailed;
    }
}
