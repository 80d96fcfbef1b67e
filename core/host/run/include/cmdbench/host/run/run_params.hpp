// A run's parameters on their way between peers: the client sends every
// value as text; the server parses it against its own plugins' declarations.
#pragma once
#include "cmdbench/host/params/params.hpp"
#include "cmdbench/host/scenario/scenario.hpp"
#include "cmdbench/report/result.hpp"

#include <cmdbench/plugin.h>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cmdbench {

using WireParams = std::vector<std::pair<std::string, std::string>>;

// `remote`: for a server on another machine, without the run's client-only
// parameters (RunSpec::client_only_params), which it then takes by default.
WireParams params_to_wire(const RunSpec &spec, bool remote = false);

// Parses wire params for this test and transport; every declared parameter
// not sent gets its default. Throws std::runtime_error naming the key.
std::map<std::string, ParamValue> params_from_wire(const cmdbench_test *test,
                                                   const cmdbench_transport *transport,
                                                   const WireParams &wire);

// A run's status as a cmdbench_status code for RunEnd, and back.
int32_t status_code(RunStatus s);
RunStatus status_from_code(int32_t code);

} // namespace cmdbench
