// A run beside its background traffic (scenario key `background`,
// docs/loaded-latency.md). The background's flows start first, each a
// client of its own with a session of its own, on threads of their own; the
// measured run starts once every flow has reported data (a row or progress,
// the event that it is moving data), or after a bounded wait; the flows are
// stopped through the run's cancel path as soon as the measured run ends.
// The result is the measured run's, with the background's rows, its
// bandwidth and what went wrong with it.
#pragma once
#include "cmdbench/host/run/run_client.hpp"

#include <string>

namespace cmdbench {

// The longest the measured run waits for the flows to report data.
constexpr double kBackgroundStartSeconds = 10.0;

// `session`: the measured run's. `server`, `token`: where the flows meet
// their servers (empty: a local server each). Sets st.abandoned when a
// flow's test could not be stopped.
RunResult run_under_load(ClientState &st, ClientSession &session, const RunSpec &spec,
                         unsigned repeat, const std::string &server, const std::string &token);

} // namespace cmdbench
