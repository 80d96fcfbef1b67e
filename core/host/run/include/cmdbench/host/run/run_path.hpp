// What one side of a run records of its data path (runs[].path): the
// address the data connection uses on this side, through link_context.
#pragma once
#include "cmdbench/base/expected.hpp"
#include "cmdbench/host/machine/counter_reader.hpp"
#include "cmdbench/host/params/params.hpp"
#include "cmdbench/host/plugins/registry.hpp"
#include "cmdbench/host/scenario/placement.hpp"
#include "cmdbench/host/scenario/uses_rdma.hpp"
#include "cmdbench/report/path_context.hpp"

#include <map>
#include <string>
#include <variant>

namespace cmdbench {

// This side's path. `meeting_host`: our address of the control connection,
// where the data connection meets (server.cpp); a `bind_address` the run
// names wins over it, since the RDMA plugins bind that.
SidePath run_side_path(const Registry &registry, const cmdbench_test *test,
                       const cmdbench_transport *transport,
                       const std::map<std::string, ParamValue> &params,
                       const std::string &meeting_host);

// The counters this side reads around its run (counter_reader.hpp): those
// of the path run_side_path finds, without its active MTU (the one thing
// that needs more than the GID table), since it is asked before the run.
CounterSources run_counter_sources(const Registry &registry, const cmdbench_test *test,
                                   const cmdbench_transport *transport,
                                   const std::map<std::string, ParamValue> &params,
                                   const std::string &meeting_host);

// The NUMA node a side is placed on: the node `numa = N` names, the node of
// the side's RDMA device for `numa = "device"` (its path through
// meeting_host), -1 for none; or why the device has no node.
Expected<int> placement_numa_node(const SidePlacement &placement, const Registry &registry,
                                  const cmdbench_test *test, const cmdbench_transport *transport,
                                  const std::map<std::string, ParamValue> &params,
                                  const std::string &meeting_host);

} // namespace cmdbench
