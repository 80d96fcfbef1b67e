// A run on every rail at once (scenario key `rails`): one client per rail,
// each on a thread of its own with its own session (a local server each, or
// the rail's server), all started together; the result has each rail's rows
// and the rows that add them up (rail_rows.hpp).
#pragma once
#include "cmdbench/host/run/run_client.hpp"

#include <map>
#include <string>

namespace cmdbench {

// `server`, `token`: the run's server when a rail names none (empty: local
// servers). `sessions`: the scenario's open sessions by server, which a rail
// with a server of its own keeps using. Sets st.abandoned when a rail's test
// could not be stopped.
RunResult run_rails_together(ClientState &st, const RunSpec &spec, unsigned repeat,
                             const std::string &server, const std::string &token,
                             std::map<std::string, ClientSession> &sessions);

} // namespace cmdbench
