// A run of several pairs at once (scenario key `pairs`): N clients of the
// run's test, each on a thread of its own with a session of its own (a local
// server each, or its own session with the run's server), past one start
// line; the result has each pair's rows ("pair K/ROW") and the rows that add
// them up (rail_rows.hpp).
#pragma once
#include "cmdbench/host/run/run_client.hpp"

#include <string>

namespace cmdbench {

// `count`: how many pairs. `server`, `token`: the run's server when it names
// none (empty: local servers). Sets st.abandoned when a pair's test could not
// be stopped.
RunResult run_pairs_together(ClientState &st, const RunSpec &spec, unsigned count, unsigned repeat,
                             const std::string &server, const std::string &token);

} // namespace cmdbench
