// The words a crash report blames: which plugin, doing what, in which run.
#pragma once
#include "cmdbench/host/plugins/registry.hpp"
#include "cmdbench/host/run/crash_report.hpp"

#include <string>

namespace cmdbench {

// "run 'NAME' (repeat 2 of 3)"; "run 'NAME'" when the run is not repeated.
std::string run_label(const std::string &name, unsigned repeat, unsigned repeats);

// Blames a test's or a transport's plugin for a crash in `hook` during `run`:
// "plugin 'stream'" ... "in test 'pingpong', hook run, run 'x'".
struct Blame {
    std::string who, where;
};
Blame blame(const Registry &registry, const cmdbench_test *test, const char *hook,
            const std::string &run);
Blame blame(const Registry &registry, const cmdbench_transport *transport, const char *hook,
            const std::string &run);

} // namespace cmdbench
