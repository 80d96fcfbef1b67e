// The planner: a scenario's runs as steps (each part of each run, each
// repeat) and, in a matrix, every pair of every round of each step.
#include "cmdbench/host/plan/job_plan.hpp"

#include <catch2/catch.hpp>

using namespace cmdbench;

namespace {

RunSpec run_named(const std::string &name, unsigned repeat) {
    RunSpec spec;
    spec.name = name;
    spec.repeat = repeat;
    return spec;
}

// A run on two rails, its devices' addresses as this machine read them.
RunSpec two_rails(const std::string &a, const std::string &b) {
    RunSpec spec = run_named("bw", 1);
    for (const auto &[label, address] : {std::pair{a, "10.0.0.2"}, std::pair{b, "10.0.1.2"}}) {
        Rail rail;
        rail.label = label;
        rail.test_params["bind_address"] = std::string(address);
        spec.rails.push_back(rail);
    }
    return spec;
}

// "name#repeat" of every step, in order.
std::string steps_text(const RunPlan &plan) {
    std::string out;
    for (size_t s = 0; s < plan.steps.size(); ++s)
        out += plan.spec_of(s).name + "#" + std::to_string(plan.repeat_of(s)) + " ";
    return out;
}

} // namespace

TEST_CASE("job plan: a run with a background, alone then under load, each repeat") {
    Scenario s;
    RunSpec lat = run_named("lat", 2);
    lat.variant = "tcp";
    auto b = std::make_shared<Background>();
    b->spec = run_named("bg", 1);
    lat.background = b;
    s.runs = {lat};
    const RunPlan plan = plan_pair_runs(s);
    CHECK(steps_text(plan) == "lat#1 lat under load#1 lat#2 lat under load#2 ");
    CHECK(plan.kind_of(0) == JobKind::Single);
    CHECK(plan.kind_of(1) == JobKind::UnderLoad);
    CHECK_FALSE(plan.spec_of(0).background);
    CHECK(plan.spec_of(1).background == b);
    CHECK(plan.spec_of(0).variant == "tcp");
    CHECK(plan.spec_of(1).variant == "tcp under load");
    // In a matrix too: each pair runs the two parts.
    const RunPlan matrix = plan_matrix_runs(s, 2, {});
    CHECK(steps_text(matrix) == "lat#1 lat#2 lat under load#1 lat under load#2 ");
    CHECK(matrix.kind_of(2) == JobKind::UnderLoad);
}

TEST_CASE("job plan, one pair: repeats interleaved, each repeat's rails then all at once") {
    Scenario s;
    RunSpec bw = two_rails("rxe0", "rxe1");
    bw.repeat = 2;
    s.runs = {run_named("lat", 2), bw};
    const RunPlan plan = plan_pair_runs(s);
    CHECK(steps_text(plan) == "lat#1 bw @rxe0#1 bw @rxe1#1 bw @all rails#1 "
                              "lat#2 bw @rxe0#2 bw @rxe1#2 bw @all rails#2 ");
    CHECK(plan.rounds.empty());
    CHECK(plan.kind_of(0) == JobKind::Single);
    CHECK(plan.kind_of(1) == JobKind::Single);
    CHECK(plan.kind_of(3) == JobKind::RailsTogether);
    CHECK(plan.part_of(3).run == 1);
    CHECK(plan.part_of(2).rail == 1);
    // One job a step, without a matrix.
    size_t jobs = 0;
    plan.for_each_job(5, 0, [&](const RunJob &job) {
        CHECK(job.pair == nullptr);
        CHECK(job.step == 5 + jobs++);
    });
    CHECK(jobs == 3);
}

TEST_CASE("job plan, one pair: a pairs series is a job per count, each its own variant") {
    Scenario s;
    RunSpec rate = run_named("rate", 2);
    rate.variant = "tcp";
    rate.pairs = {1, 4};
    rate.pairs_series = true;
    RunSpec four = run_named("four", 1);
    four.variant = "tcp";
    four.pairs = {4};
    s.runs = {rate, four};
    const RunPlan plan = plan_pair_runs(s);
    CHECK(steps_text(plan) == "rate (1 pair)#1 rate (4 pairs)#1 four#1 "
                              "rate (1 pair)#2 rate (4 pairs)#2 ");
    CHECK(plan.kind_of(1) == JobKind::PairsTogether);
    CHECK(plan.part_of(1).pairs == 4);
    CHECK(plan.part_of(0).pairs == 1);
    CHECK(plan.spec_of(1).variant == "tcp 4 pairs");
    CHECK(plan.spec_of(0).variant == "tcp 1 pair");
    CHECK(plan.spec_of(1).series == "rate");
    // A single count keeps the run's own labels.
    CHECK(plan.kind_of(2) == JobKind::PairsTogether);
    CHECK(plan.spec_of(2).variant == "tcp");
    CHECK(plan.spec_of(2).series.empty());
}

TEST_CASE("job plan, one pair: blocked order runs each run's repeats back to back") {
    Scenario s;
    s.runs = {run_named("a", 2), run_named("b", 1)};
    s.comparison.order = RunOrder::Blocked;
    CHECK(steps_text(plan_pair_runs(s)) == "a#1 a#2 b#1 ");
}

TEST_CASE("job plan, matrix: each rail's run, then all at once, labelled as rank 0's devices") {
    Scenario s;
    // This rank's devices are named otherwise than rank 0's.
    s.runs = {run_named("lat", 2), two_rails("mlx5_2", "mlx5_3")};
    const RunPlan plan = plan_matrix_runs(s, 3, {"mlx5_0", "mlx5_1"});
    REQUIRE(plan.parts.size() == 4);
    CHECK(plan.parts[0].rail == kNoRail);
    CHECK(plan.parts[1].rail == 0);
    CHECK(plan.parts[3].rail == kAllRails);
    CHECK(steps_text(plan) == "lat#1 lat#2 bw @mlx5_0#1 bw @mlx5_1#1 bw @all rails#1 ");
    // Each rail binds this rank's own address for it; the all-rails run
    // keeps every rail.
    CHECK(std::get<std::string>(plan.parts[2].spec.test_params.at("bind_address")) == "10.0.1.2");
    CHECK(plan.parts[2].spec.rails.empty());
    REQUIRE(plan.parts[3].spec.rails.size() == 2);
    CHECK(plan.parts[3].spec.rails[1].label == "mlx5_1");
}

TEST_CASE("job plan, matrix: every pair of every round of each step, from any point on") {
    Scenario s;
    s.runs = {run_named("lat", 1), run_named("bw", 1)};
    s.matrix.pattern = MatrixPattern::Ring;
    const RunPlan plan = plan_matrix_runs(s, 3, {});
    REQUIRE(plan.rounds.size() == 3); // ring of 3: one pair a round (no rank in two)
    std::string seen;
    plan.for_each_job(0, 2, [&](const RunJob &job) {
        seen += std::to_string(job.step) + "." + std::to_string(job.round) + ":" +
                std::to_string(job.pair->client) + ">" + std::to_string(job.pair->server) + " ";
    });
    // The rest of step 0 from round 2, then all of step 1.
    CHECK(seen == "0.2:2>0 1.0:0>1 1.1:1>2 1.2:2>0 ");
}
