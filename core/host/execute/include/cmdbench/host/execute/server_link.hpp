// Where a job's client meets its peer's server: one it starts itself (a
// local server), one named on the command line or in the scenario, or a
// matrix partner's. The link holds the sessions the job's runs use.
#pragma once
#include "cmdbench/host/run/run_client.hpp"

#include <map>
#include <string>
#include <vector>

namespace cmdbench {

struct ServerLink {
    std::string server; // a run without a server of its own uses it ("": a local one)
    std::string token;  // proves us to that server
    std::string label;  // names a new session's server in messages ("": its address)
    // A matrix partner: where its server listens on each rail, for a run on
    // all rails at once (empty: each rail's own server, else `server`).
    std::vector<std::string> rail_servers;
    // The sessions end with the job (a matrix pair's link); otherwise the
    // next jobs keep using them, until the owner closes them.
    bool one_job = false;
    std::map<std::string, ClientSession> sessions; // open sessions by server
};

// The link's session for `server`, set up on first use.
ClientSession &session_for(ServerLink &link, const std::string &server);

} // namespace cmdbench
