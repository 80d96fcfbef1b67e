// The one planner: what a scenario runs, as run jobs. Repeats, rails and,
// under a launcher, matrix pairs are expanded here; the single-pair runner
// (pipeline) and the matrix coordinator (matrix) execute the jobs with the
// one executor (execute/execute_job.hpp).
//
// A plan is parts, steps and rounds, and its jobs are read from those
// rather than stored: a 1,000-rank all-pairs matrix has a million pairs a
// step, which no rank needs to hold.
#pragma once
#include "cmdbench/host/scenario/matrix_schedule.hpp"
#include "cmdbench/host/scenario/scenario.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace cmdbench {

constexpr int kNoRail = -1;   // a run without rails
constexpr int kAllRails = -2; // every rail at once

// What a job's client does: one run over one peer link, one client per
// rail, all at once (execute/rails_together.hpp), one run beside its
// background traffic (execute/under_load.hpp), or N pairs of one run at
// once (execute/pairs_together.hpp).
enum class JobKind { Single, RailsTogether, UnderLoad, PairsTogether };

// One part of a scenario's run: the run itself, or for a run with rails,
// one rail's run or the run on every rail at once (rail_plan.hpp), or for a
// run with a background, the run alone or under load (load_plan.hpp).
struct RunPart {
    RunSpec spec;
    size_t run = 0;      // index into Scenario::runs
    int rail = kNoRail;  // its rail's position, kNoRail or kAllRails
    bool loaded = false; // measured beside spec.background
    unsigned pairs = 0;  // how many pairs run at once (pair_plan.hpp); 0: none
};

// One repetition of one part. Without a matrix a step is one job; in a
// matrix, every pair of every round.
struct PlanStep {
    size_t part = 0;
    unsigned repeat = 1; // 1-based
};

struct RunJob {
    size_t step = 0;
    size_t round = 0;                 // the matrix round (0 without a matrix)
    const MatrixPair *pair = nullptr; // the matrix pair (none without a matrix)
};

struct RunPlan {
    std::vector<RunPart> parts;
    std::vector<PlanStep> steps;
    std::vector<MatrixRound> rounds; // empty without a matrix

    const RunPart &part_of(size_t step) const { return parts[steps[step].part]; }
    const RunSpec &spec_of(size_t step) const { return part_of(step).spec; }
    unsigned repeat_of(size_t step) const { return steps[step].repeat; }
    JobKind kind_of(size_t step) const;
    // Every job from (from_step, from_round) on, in order, to fn(const RunJob &).
    template <class Fn> void for_each_job(size_t from_step, size_t from_round, Fn fn) const;
};

// One pair (no matrix): each run's repeats in [comparison] order
// (run_order.hpp), each repeat of a run with rails or a series of `pairs`
// as its parts in turn.
RunPlan plan_pair_runs(const Scenario &scenario);

// A matrix of `ranks` ranks: each part's repeats back to back, each step
// over every round of the scenario's [matrix] schedule. The rails are
// labelled `rail_labels` (rank 0's devices), so that every pair's results of
// one rail share a name.
RunPlan plan_matrix_runs(const Scenario &scenario, int ranks,
                         const std::vector<std::string> &rail_labels);

template <class Fn> void RunPlan::for_each_job(size_t from_step, size_t from_round, Fn fn) const {
    for (size_t s = from_step; s < steps.size(); ++s) {
        if (rounds.empty()) {
            fn(RunJob{s, 0, nullptr});
            continue;
        }
        for (size_t r = s == from_step ? from_round : 0; r < rounds.size(); ++r)
            for (const MatrixPair &p : rounds[r])
                fn(RunJob{s, r, &p});
    }
}

} // namespace cmdbench
