// Several clients of one job at once, each on a thread of its own with its
// own session: what a run on every rail at once (rails_together.hpp) and a
// run of several pairs (pairs_together.hpp) share.
#pragma once
#include "cmdbench/host/run/run_client.hpp"

#include <string>
#include <utility>
#include <vector>

namespace cmdbench {

// One client of the job: its run, its label in rows and messages, and its
// session; `owned`: a session of its own, closed when its run ends.
struct TogetherMember {
    RunSpec spec;
    std::string label;
    ClientSession *session = nullptr;
    bool owned = false;
};

// What the clients did: each one's part (label, status, when it started
// and how long it took, from the start line when there is one, its path)
// and rows, in member order; the counters of the sources they read, each
// source once (members read a source they share around overlapping runs).
struct TogetherRun {
    std::vector<RailPart> parts;
    std::vector<std::pair<std::string, std::vector<Row>>> rows;
    std::vector<std::pair<std::string, std::string>> settings; // "LABEL/key", value
    RunCounters counters;
    double wall_seconds = 0;
};

// `barrier`: no member sends its run request before every member's session
// is open (or it has given up), so that none runs alone at first. Sets
// st.abandoned when a member's test could not be stopped.
TogetherRun run_together(ClientState &st, const std::vector<TogetherMember> &members,
                         unsigned repeat, bool barrier);

// The first failed member's status and error, "PREFIX LABEL: error" ("rail
// mlx5_0: ...", "pair 2: ..."), on r; r untouched when every member was ok.
void combine_status(RunResult &r, const std::vector<RailPart> &parts, const std::string &prefix);

} // namespace cmdbench
