// Scenario files (TOML, docs/scenarios.md): parsed, validated against the
// registry, with --set overrides applied, before anything runs.
#pragma once
#include "cmdbench/host/params/params.hpp"
#include "cmdbench/host/plugins/registry.hpp"
#include "cmdbench/host/scenario/matrix_spec.hpp"
#include "cmdbench/host/scenario/placement.hpp"
#include "cmdbench/report/compare/comparison_settings.hpp"
#include "cmdbench/report/expectation.hpp"

#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace cmdbench {

// Message is "file:line:column: what is wrong" (exit code 2).
// The most pairs one run may have (`pairs`).
constexpr unsigned kMaxPairs = 64;

struct ScenarioError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One rail of a multi-rail run (`rails = [...]`, docs/scenarios.md): the
// parameters that put the run on it (usually `bind_address`) and, for a
// remote server, the server to use on it.
struct Rail {
    std::string label;  // `label`, else the device or interface found, else "rail N"
    std::string server; // empty: the run's server
    std::map<std::string, ParamValue> test_params;
    std::map<std::string, ParamValue> transport_params;
    // Keys whose value here is this machine's own (rails = "all":
    // bind_address, this machine's address on the rail): a remote server
    // is not sent them, and uses its own default (where the client reached it).
    std::set<std::string> client_only;
};

struct Background;

struct RunSpec {
    std::string name; // `name`, else "<test>/<transport>"
    std::string test;
    std::string transport; // empty when the test takes none
    double timeout_s = 60;
    std::string server;  // `server = "host"`: empty = start one on loopback
    std::string group;   // `group`, default the test name (comparison rows)
    std::string variant; // `variant`, default transport, else test (comparison columns)
    unsigned repeat = 1; // `repeat = N`: run the measurement N times
    std::vector<std::string> compare; // `compare = [...]`: metrics to compare; empty = all
    Expectations expect;              // `expect = {...}`: what verdicts judge (verdict.hpp)
    std::string expect_at;            // where a ratio expectation was given, for errors
    RunPlacement placement;           // `cpus`, `numa`: where each side runs
    // Every declared parameter of the test and of the transport, with its
    // default when the scenario does not set it.
    std::map<std::string, ParamValue> test_params;
    std::map<std::string, ParamValue> transport_params;
    // `rails`: the run once per rail, then on every rail at once (rail_plan.hpp).
    std::vector<Rail> rails;
    // `rails = "all"`: `rails` are this machine's active RDMA devices, so
    // each rank of a matrix job has its own (docs/matrix.md, "Rails").
    bool rails_all = false;
    // Parameters not sent to a remote server (Rail::client_only).
    std::set<std::string> client_only_params;
    // `background`: traffic the host runs beside the measured run; the run
    // is then measured alone and under it (docs/loaded-latency.md).
    std::shared_ptr<const Background> background;
    // `pairs`: how many client/server pairs run the test at once, each count
    // of a scaling series in turn (pair_plan.hpp); empty: the one pair.
    std::vector<unsigned> pairs;
    bool pairs_series = false; // given as a list: each count is a variant
    // Where the run keys that matrix mode refuses (server, rails, pairs) were
    // given: "file:line:column", or "--set KEY=VALUE"; absent when not given.
    std::map<std::string, std::string> given_at;
    std::string series; // one count's run of a series: the series' run name
};

// A run's background traffic: `flows` concurrent client/server pairs of
// `spec`'s test, each with a session of its own.
struct Background {
    RunSpec spec;       // test, transport, parameters; no labels of its own
    unsigned flows = 1; // `flows`
};

// The most background flows of one run.
constexpr unsigned kMaxBackgroundFlows = 64;

struct Scenario {
    std::string path;
    std::string name, description;
    std::vector<std::string> plugins; // `plugins = [...]`, relative to the file
    std::vector<RunSpec> runs;
    std::string baseline = kDefaultBaseline; // `baseline`: the variant ratios are taken against
    MatrixSpec matrix;             // `[matrix]`: pairing under a launcher (docs/matrix.md)
    ComparisonSettings comparison; // `[comparison]`: run order, spread limit
};

// Only the `plugins = [...]` list (resolved against the file's directory), so
// the caller can load them before the full parse. Throws ScenarioError.
std::vector<std::string> scenario_plugins(const std::string &path);
// Same, from the file's text: a scenario from a pipe (`run <(gen)`) can be
// read only once, so `run` reads it with read_scenario_file and parses the text.
std::vector<std::string> scenario_plugins_in(const std::string &text, const std::string &path);
// The file's text, at most kMaxScenarioBytes (input_file.hpp). Throws ScenarioError.
std::string read_scenario_file(const std::string &path);

// `overrides` are --set "key=value" strings (value in TOML syntax) applied to
// every run that declares the key. Throws ScenarioError.
Scenario load_scenario(const std::string &path, const Registry &registry,
                       const std::vector<std::string> &overrides);
// Same, from text (tests, and scenarios built by front ends).
Scenario parse_scenario(const std::string &text, const std::string &path, const Registry &registry,
                        const std::vector<std::string> &overrides);

// The first `cpus` or `numa` of a run that names a CPU or NUMA node this
// machine does not have, as a ScenarioError at the key: the client side of
// every run, the server side of runs whose server is local (`local_server`
// says whether a run without `server` has one: no --server given).
void check_placement_here(const Scenario &s, bool local_server);

// The effective scenario (all parameters explicit), as TOML text.
std::string to_toml(const Scenario &s);

} // namespace cmdbench
