// `cmdbench run SCENARIO`: one pair, or matrix mode under a launcher.
#include "cli_options.hpp"
#include "cmdbench/control/host_port.hpp"
#include "cmdbench/host/cli/interrupt.hpp"
#include "cmdbench/host/machine/run_context.hpp"
#include "cmdbench/host/matrix/job.hpp"
#include "cmdbench/host/matrix/matrix_runner.hpp"
#include "cmdbench/host/matrix/start_problems.hpp"
#include "cmdbench/host/pipeline/runner.hpp"
#include "cmdbench/host/plugins/host_services.hpp"
#include "cmdbench/host/run/control_port.hpp"
#include "cmdbench/host/run/exit_status.hpp"
#include "cmdbench/host/scenario/scenario.hpp"
#include "cmdbench/host/serve/serve_label.hpp"
#include "cmdbench/report/output_file.hpp"
#include "commands.hpp"
#include "output_clash.hpp"
#include "progress.hpp"

#include <cstdio>
#include <iostream>

namespace cmdbench::cli {
namespace {

// How long rank 0 waits for every rank to have read the scenario (a slow
// shared file system, a rank started late).
constexpr double kStartTimeout = 60;

po::options_description run_options() {
    po::options_description d("Options of `cmdbench run SCENARIO`");
    d.add_options()("set", po::value<std::vector<std::string>>()->composing(),
                    "KEY=VALUE: override a parameter in every run that has it (TOML value syntax, "
                    "e.g. --set sizes=[64,4096] --set timeout=10); repeatable")(
        "server", po::value<std::string>(),
        "HOST[:PORT]: use a running `cmdbench serve` (default: start one on loopback)")(
        "format", po::value<std::string>()->default_value("table"),
        ("stdout format: " + format_names(formats_for(kUseStdout))).c_str())(
        "output,o", po::value<std::string>(),
        ("also write the results to FILE (" + file_formats_text() + "), rewritten after every run")
            .c_str())("quiet,q", "no progress display")(
        "verbose,v", "under a launcher (matrix mode): plugins' info lines for every pair (without "
                     "it only their warnings and errors; one pair always shows them)")(
        "allow-skip", "runs skipped for lack of a device do not make the exit status non-zero")(
        "report", po::value<std::string>(),
        "FILE.html: also write the comparison of the variants as a web page (under a launcher: "
        "the matrix heatmaps)")("pattern", po::value<std::string>(),
                                "under a launcher (mpirun, srun): pair the ranks as all-pairs, "
                                "ring, one-to-all or bisection (overrides [matrix] pattern; "
                                "docs/matrix.md)")(
        "resume", po::value<std::string>(),
        "FILE: under a launcher, keep the finished pairs of FILE (the JSON -o of an earlier "
        "job of this scenario with as many ranks) and run only the others");
    d.add(token_options("FILE: the token of the --server (default: CMDBENCH_TOKEN); the "
                        "server started by run itself gets its own"));
    d.add(plugin_options());
    return d;
}

const char *kRunExitStatus = R"(
Exit status: 0 every run succeeded and every expectation held; 1 a run
failed, timed out or was skipped (without --allow-skip), or a results file
could not be written; 2 bad command line, scenario file, plugin or output
path (nothing ran); 3 every run ran, but an expectation of the scenario
(`expect`, docs/scenarios.md) failed or could not be judged (the failing
ones are named on stderr); 130 interrupted.
)";

// Checked before anything loads or runs: a bad port is a typo, not a run.
std::string checked_server(const std::string &spec) {
    if (const Expected<HostPort> hp = parse_host_port(spec, kDefaultControlPort); !hp)
        throw UsageError("--server expects " + std::string(kHostPortForms) + ", got '" + spec +
                         "': " + hp.error());
    return spec;
}

// --pattern NAME: the [matrix] pattern, as if the scenario said so.
void apply_pattern_option(const std::string &name, Scenario &scenario) {
    auto p = matrix_pattern_from(name);
    if (!p)
        throw UsageError("--pattern must be one of " + std::string(kMatrixPatternNames) +
                         " (got '" + name + "')");
    scenario.matrix.given = true;
    scenario.matrix.pattern = *p;
}

// Where run key `key` of `r` was given, else the scenario file.
std::string where_given(const Scenario &scenario, const RunSpec &r, const std::string &key) {
    const auto at = r.given_at.find(key);
    return at != r.given_at.end() ? at->second : scenario.path;
}

// In matrix mode the ranks are the servers: a server named elsewhere has no
// place. Why the scenario cannot run under a launcher, or "".
std::string matrix_unusable(const RunOptions &opt, const Scenario &scenario) {
    std::string why;
    if (!opt.server.empty()) why = "--server cannot be used under a launcher (matrix mode)";
    for (const RunSpec &r : scenario.runs)
        if (why.empty() && !r.server.empty())
            why = where_given(scenario, r, "server") + ": run '" + r.name + "' names server '" +
                  r.server +
                  "', which cannot be used under a launcher (matrix mode: the ranks serve)";
    for (const RunSpec &r : scenario.runs) {
        if (why.empty() && !r.rails.empty() && !r.rails_all)
            why = where_given(scenario, r, "rails") + ": run '" + r.name +
                  "' lists its rails, which name one machine's addresses; under a launcher "
                  "(matrix mode) use rails = \"all\": each rank's own RDMA devices";
        // A matrix pair's server serves one client; several pairs per matrix
        // pair would each need a server of their own on the partner.
        if (why.empty() && !r.pairs.empty())
            why = where_given(scenario, r, "pairs") + ": run '" + r.name +
                  "' sets 'pairs', which runs without a launcher only (under a launcher, "
                  "every pair of ranks is a pair already)";
    }
    return why;
}

} // namespace

void print_run_help(std::ostream &out) {
    out << "Usage: cmdbench run SCENARIO [options]\n\n" << run_options() << kRunExitStatus;
}

namespace {

// The scenario file named on the command line.
std::string scenario_path_of(const po::variables_map &vm) {
    if (!vm.count("positional"))
        throw UsageError("run needs a scenario file: cmdbench run SCENARIO.toml");
    auto positional = vm["positional"].as<std::vector<std::string>>();
    if (positional.size() != 1)
        throw UsageError("run takes one scenario file, got " + std::to_string(positional.size()));
    return positional[0];
}

// Every file `run` reads, for the outputs to keep off. `--resume` is not
// among them: `-o` may name it (the new results replace it), so it is
// checked against --report alone.
std::vector<NamedPath> run_inputs(const po::variables_map &vm, const std::string &scenario) {
    std::vector<NamedPath> in = {{"the scenario", scenario}};
    if (vm.count("token-file")) in.push_back({"--token-file", vm["token-file"].as<std::string>()});
    if (vm.count("plugin-dir"))
        for (const auto &p : vm["plugin-dir"].as<std::vector<std::string>>())
            in.push_back({"--plugin-dir", p});
    return in;
}

RunOptions run_options_of(const po::variables_map &vm) {
    RunOptions opt;
    opt.format = format_option(vm, kUseStdout);
    if (vm.count("server")) opt.server = checked_server(vm["server"].as<std::string>());
    if (vm.count("output")) opt.output = vm["output"].as<std::string>();
    if (vm.count("report")) opt.report = vm["report"].as<std::string>();
    opt.quiet = vm.count("quiet") > 0;
    opt.allow_skip = vm.count("allow-skip") > 0;
    opt.token = token_of(vm);
    if (vm.count("resume")) opt.resume = vm["resume"].as<std::string>();
    return opt;
}

// The scenario, its plugins loaded into `registry`; false, with why in
// `problem`, when it cannot be read or is wrong.
bool load_scenario(const std::string &path, const po::variables_map &vm, Registry &registry,
                   Scenario &scenario, std::string &problem) {
    std::vector<std::string> overrides;
    if (vm.count("set")) overrides = vm["set"].as<std::vector<std::string>>();
    try {
        // Read once: a scenario from a pipe has no second reading.
        const std::string text = read_scenario_file(path);
        for (const LoadFailure &f : load_all(registry, vm, scenario_plugins_in(text, path)))
            problem += (problem.empty() ? "" : "\n") + ("cmdbench: plugin refused: " + f.reason);
        if (!problem.empty()) return false;
        scenario = parse_scenario(text, path, registry, overrides);
    } catch (const ScenarioError &e) {
        problem = e.what();
        return false;
    } catch (const std::exception &e) { // anything the parsers let through: no abort
        problem = "cmdbench: " + path + ": cannot load: " + e.what();
        return false;
    }
    if (vm.count("pattern")) apply_pattern_option(vm["pattern"].as<std::string>(), scenario);
    return true;
}

// A [matrix] scenario that a launcher started several times without PMIx
// (srun without --mpi=pmix): the processes cannot find each other and would
// each run the single-pair benchmark, all writing the same -o. Refused as
// `cmdbench job` refuses it, said once, by the launcher's first process.
bool refused_without_pmix(const Scenario &scenario) {
    const LauncherTasks tasks = launcher_tasks();
    if (tasks.count < 2) return false;
    if (tasks.index == 0)
        std::fprintf(stderr,
                     "cmdbench: %s has [matrix], but its %d processes were %s; they would run "
                     "%d unrelated single-pair benchmarks\n",
                     scenario.path.c_str(), tasks.count, kNoPmixLauncher, tasks.count);
    return true;
}

// Why this rank cannot run the scenario, or "": the scenario, its plugins,
// matrix mode's limits, and the CPUs and NUMA nodes it places sides on.
std::string start_problem(const std::string &path, const po::variables_map &vm,
                          const RunOptions &opt, bool matrix, Registry &registry,
                          Scenario &scenario) {
    std::string problem;
    if (!load_scenario(path, vm, registry, scenario, problem)) return problem;
    if (matrix) problem = matrix_unusable(opt, scenario);
    if (!problem.empty()) return "cmdbench: " + problem;
    // A CPU or NUMA node this machine lacks is a scenario error, before
    // anything runs; a named server checks its own side (server.cpp).
    try {
        check_placement_here(scenario, opt.server.empty() || matrix);
    } catch (const ScenarioError &e) {
        return e.what();
    }
    return "";
}

// The job this process belongs to, and whether it runs a matrix (two or
// more ranks); false (said on stderr) when it cannot start. Under a
// launcher, what every rank would say is said once, by rank 0 (with the
// ranks and nodes it concerns).
bool prepare(const std::string &path, const po::variables_map &vm, const RunOptions &opt,
             Registry &registry, Scenario &scenario, std::unique_ptr<Job> &job, bool &matrix) {
    try {
        job = join_job();
        matrix = job && job->size() >= 2;
        const std::string problem = start_problem(path, vm, opt, matrix, registry, scenario);
        if (matrix) return every_rank_ready(*job, problem, kStartTimeout);
        if (!problem.empty()) {
            std::fprintf(stderr, "%s\n", problem.c_str());
            return false;
        }
    } catch (const JobError &e) {
        std::fprintf(stderr, "cmdbench: %s\n", e.what());
        return false;
    }
    if (!job && scenario.matrix.given && refused_without_pmix(scenario)) return false;
    if (!matrix && !opt.resume.empty()) {
        std::fprintf(stderr, "cmdbench: --resume works under a launcher (matrix mode): a "
                             "single-pair run has nothing to go on from\n");
        return false;
    }
    if (!matrix && scenario.matrix.given)
        std::fprintf(stderr, "cmdbench: note: [matrix] is ignored without a launcher of two or "
                             "more ranks (single-pair run)\n");
    return true;
}

RunContext run_context_of(const std::string &path, const Scenario &scenario,
                          const Registry &registry) {
    RunContext context = collect_context();
    context.cmdbench_version = CMDBENCH_VERSION;
    context.scenario_path = path;
    context.scenario_text = to_toml(scenario);
    for (const auto &lp : registry.plugins())
        context.plugins.push_back(
            {lp.desc->name, lp.desc->version, lp.file, lp.desc->abi_major, lp.desc->abi_minor});
    return context;
}

} // namespace

int cmd_run(const std::vector<std::string> &args) {
    po::positional_options_description pos;
    pos.add("positional", -1);
    auto desc = run_options();
    auto vm = parse(desc, args, &pos);
    if (vm.count("help")) {
        print_run_help(std::cout);
        return 0;
    }
    const std::string path = scenario_path_of(vm);
    RunOptions opt = run_options_of(vm);
    check_outputs_apart({{"-o", opt.output}, {"--report", opt.report}}, run_inputs(vm, path));
    check_outputs_apart({{"--report", opt.report}}, {{"--resume", opt.resume}});
    // Before loading or running anything: an hour of runs must not end in
    // "cannot write".
    if (!outputs_writable({{"-o", opt.output}, {"--report", opt.report}})) return kExitUsage;

    Registry registry;
    Scenario scenario;
    std::unique_ptr<Job> job;
    bool matrix = false;
    if (!prepare(path, vm, opt, registry, scenario, job, matrix)) return kExitUsage;
    // A line per pair is noise at 1,000 ranks: plugins' info lines only
    // with --verbose (servers started from here inherit it).
    if (matrix && !vm.count("verbose")) quiet_plugin_info();
    if (matrix)
        label_servers("rank " + std::to_string(job->rank()) + " (node " + job->node() + ")");
    const auto &interrupted = install_interrupt_handler();
    const RunContext context = run_context_of(path, scenario, registry);
    if (matrix) return run_matrix(*job, scenario, registry, context, opt, interrupted);
    Progress progress(opt.quiet);
    opt.progress = &progress;
    return run_scenario(scenario, registry, context, opt, interrupted);
}

} // namespace cmdbench::cli
