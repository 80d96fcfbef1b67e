// What the ranks of a matrix job say to rank 0 and back once the launcher
// has wired them up (docs/matrix.md, "How it runs"): one TCP connection per
// rank to rank 0's coordinator, carrying JSON objects in control-channel
// frames. The launcher is not asked again: its collectives fail for the
// whole job when one rank dies, and this link lets the job go on without it.
#pragma once
#include "cmdbench/control/control.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cmdbench {

// How often a rank says it is there, and so how soon a stopped one is
// noticed (its `dead_after` is counted from its last word).
constexpr double kBeatSeconds = 1.0;

// A rank rank 0 no longer waits for, and why ("its connection closed: killed
// or crashed", "no word from it for 10 s: stopped or stuck").
struct GoneRank {
    int rank = -1;
    std::string why;
    size_t seq = 0;      // the round under way when it went (RoundWord::seq)
    bool silent = false; // found by a wait running out: it may still be there (stopped)
};

// Rank 0's word at the end of a round, the same for every rank.
struct RoundWord {
    size_t seq = 0;               // rounds counted over the whole job, from 0
    std::string stop;             // why every rank stops here; "" = go on
    std::vector<GoneRank> gone;   // every rank gone so far, in rank order
    bool is_gone(int rank) const; // whether `rank` is one of them
};

// One frame: a JSON object {"t": kind, ...}.
control::Message round_frame(const nlohmann::json &j);
// Its object; throws ControlError for a frame of another type or bad JSON.
nlohmann::json round_json(const control::Message &m);

nlohmann::json round_word_json(const RoundWord &w);
RoundWord round_word_from(const nlohmann::json &j);

} // namespace cmdbench
