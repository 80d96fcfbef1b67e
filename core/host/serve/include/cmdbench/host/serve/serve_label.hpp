// The server a matrix rank starts (docs/matrix.md) says whose it is in its
// log lines, so an error names the rank and node; and below the info log
// level it leaves a run's failure to the pair's client, which reports it to
// rank 0 anyway, instead of a line per pair. The rank labels its servers
// before starting them; they inherit the label through the environment.
#pragma once
#include <string>

namespace cmdbench {

// "rank 2 (node n3)": for the servers this process starts from now on.
void label_servers(const std::string &label);

// "cmdbench serve: ", or "cmdbench serve of rank 2 (node n3): ".
std::string serve_log_prefix();

// Whether a run's failure gets a line of the server's log: always, except
// on a matrix rank's server below the info level (without `run -v`).
bool serve_logs_run_failures();

} // namespace cmdbench
