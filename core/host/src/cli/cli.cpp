#include "cmdbench/host/cli.hpp"

#include "cli/cmd_job.hpp"
#include "cmdbench/report/comparison.hpp"
#include "cmdbench/report/comparison_json.hpp"
#include "cmdbench/control/host_port.hpp"
#include "cmdbench/host/interrupt.hpp"
#include "cmdbench/host/job.hpp"
#include "matrix/matrix_runner.hpp"
#include "cmdbench/report/output_file.hpp"
#include "cmdbench/report/output_format.hpp"
#include "plugins/plugin_listing.hpp"
#include "cmdbench/host/plugin_loader.hpp"
#include "cmdbench/host/run_context.hpp"
#include "cmdbench/control/printable_text.hpp"
#include "cmdbench/report/results_reader.hpp"
#include "run/runner.hpp"
#include "cmdbench/host/scenario.hpp"
#include "serve/serve_exposure.hpp"
#include "serve/server.hpp"
#include "run/server_process.hpp"
#include "cli/token_source.hpp"
#include "cmdbench/report/verdict.hpp"

#include <boost/program_options.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace po = boost::program_options;

namespace cmdbench {
namespace {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const char *kMainHelp = R"(cmdbench - measure network transports side by side (RDMA vs TCP)

Usage: cmdbench <command> [options]

Commands:
  run SCENARIO   run the runs of a scenario file (TOML) and report the results
  compare FILE.json...
                 put result files side by side: one column per variant, ratios
                 to the baseline (also files from different machines)
  serve          serve runs for `cmdbench run --server` clients
  plugins        list plugins, their transports, tests and parameters
  job            under mpirun / srun --mpi=pmix: list the job's ranks (docs/cluster.md)
  help COMMAND   options of one command
  rstream, ...   front ends installed in <prefix>/libexec/cmdbench (cmdbench-NAME)

Options:
  -h, --help     this text
  --version      print the version

Exit status: 0 success; 1 a run failed, timed out or was skipped (see
--allow-skip), or a results file could not be written; 2 bad command line,
scenario file, plugin or output path; 3 every run ran but an expectation
(`expect`) failed or could not be judged; 130 interrupted.
See README.md and docs/ for scenarios, results and plugins.
)";

po::options_description plugin_options() {
    po::options_description d("Plugin options");
    d.add_options()("plugin-dir", po::value<std::vector<std::string>>()->composing(),
                    "load plugins from this directory or file (repeatable); added to the "
                    "default path and CMDBENCH_PLUGIN_PATH (colon-separated)")(
        "no-default-plugins",
        "do not load the plugins next to the executable or on CMDBENCH_PLUGIN_PATH");
    return d;
}

po::options_description token_options(const char *what) {
    po::options_description d("Token options (docs/security.md)");
    d.add_options()("token-file", po::value<std::string>(), what)(
        "token", po::value<std::string>(),
        "TEXT: the token itself (other users can see it in ps; prefer --token-file or "
        "CMDBENCH_TOKEN)");
    return d;
}

// The token of --token-file, --token or CMDBENCH_TOKEN; "" when none.
std::string token_of(const po::variables_map &vm) {
    auto opt = [&](const char *name) -> std::optional<std::string> {
        if (!vm.count(name)) return std::nullopt;
        return vm[name].as<std::string>();
    };
    try {
        return resolve_token(opt("token"), opt("token-file"));
    } catch (const std::invalid_argument &e) {
        throw UsageError(e.what());
    }
}

po::options_description run_options() {
    po::options_description d("Options of `cmdbench run SCENARIO`");
    d.add_options()("set", po::value<std::vector<std::string>>()->composing(),
                    "KEY=VALUE: override a parameter in every run that has it (TOML value syntax, "
                    "e.g. --set sizes=[64,4096] --set timeout=10); repeatable")(
        "server", po::value<std::string>(),
        "HOST[:PORT]: use a running `cmdbench serve` (default: start one on loopback)")(
        "format", po::value<std::string>()->default_value("table"),
        "stdout format: table, json or csv")(
        "output,o", po::value<std::string>(),
        "also write the results to FILE (JSON for *.json, CSV for *.csv, else a table), "
        "rewritten after every run")("quiet,q", "no progress display")(
        "allow-skip", "runs skipped for lack of a device do not make the exit status non-zero")(
        "report", po::value<std::string>(),
        "FILE.html: also write the comparison of the variants as a web page (under a launcher: "
        "the matrix heatmaps)")("pattern", po::value<std::string>(),
                                "under a launcher (mpirun, srun): pair the ranks as all-pairs, "
                                "ring, one-to-all or bisection (overrides [matrix] pattern; "
                                "docs/matrix.md)");
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

po::options_description compare_options() {
    po::options_description d("Options of `cmdbench compare FILE.json...`");
    d.add_options()("baseline", po::value<std::string>(),
                    "the column ratios are taken against: a column label, or a variant (its "
                    "first column); default: the first file's baseline, else the first column")(
        "common", "compare only the groups and sizes every file has, instead of refusing files "
                  "that do not line up")("format", po::value<std::string>()->default_value("table"),
                                         "stdout format: table or json")(
        "report", po::value<std::string>(), "FILE.html: also write the comparison as a web page");
    return d;
}

po::options_description serve_options() {
    po::options_description d("Options of `cmdbench serve`");
    d.add_options()("bind", po::value<std::string>()->default_value(kDefaultServeBind),
                    "address(es) to listen on, comma-separated; the default is reachable from "
                    "this machine only: give the address clients use, or 0.0.0.0 / :: for all")(
        "port", po::value<long>()->default_value(kDefaultControlPort),
        "control port, 0-65535 (0: any free port)")("once", "exit after serving one client")(
        "max-clients", po::value<long>()->default_value(1),
        "serve this many clients at once, 1-1024; others are told the server is busy")(
        "idle-timeout", po::value<long>()->default_value(ServeOptions{}.idle_timeout_s),
        "drop a client silent for this many seconds, 1-86400")(
        "quiet,q", "do not print server-side result tables")(
        "ready-fd", po::value<int>()->default_value(-1), "(internal) write the port to this fd");
    po::options_description limits("Limits on what clients may ask for (docs/security.md)");
    limits.add_options()("limit", po::value<std::vector<std::string>>()->composing(),
                         "KEY=MAX: the largest value of parameter KEY a run may have (K/M/G/T: "
                         "powers of 1024; none: no limit); repeatable. Defaults: sizes=64M "
                         "buffer_size=64M bytes=64G count=10000 threads=64 timeout=3600")(
        "allow-privileged-ports", "let runs use data ports 1-1023")(
        "no-limits", "no limits at all (what the server that `cmdbench run` starts does)")(
        "max-memory", po::value<std::string>(),
        "BYTES (K/M/G/T suffix allowed): cap the server's address space (RLIMIT_AS); "
        "ignored in sanitizer builds");
    d.add(token_options("FILE: clients must prove they hold the token in FILE (default: "
                        "CMDBENCH_TOKEN; none: anyone who can connect is served)"));
    d.add(limits);
    d.add(plugin_options());
    return d;
}

po::options_description plugins_options() {
    po::options_description d("Options of `cmdbench plugins`");
    d.add_options()("json", "print JSON");
    d.add(plugin_options());
    return d;
}

po::variables_map parse(const po::options_description &desc, const std::vector<std::string> &args,
                        const po::positional_options_description *pos = nullptr) {
    po::options_description all = desc;
    all.add_options()("help,h", "options of this command");
    if (pos) all.add_options()("positional", po::value<std::vector<std::string>>(), "");
    po::variables_map vm;
    try {
        auto parser = po::command_line_parser(args).options(all);
        if (pos) parser.positional(*pos);
        po::store(parser.run(), vm);
        po::notify(vm);
    } catch (const po::error &e) {
        throw UsageError(e.what());
    }
    return vm;
}

long in_range(const po::variables_map &vm, const char *name, long lo, long hi) {
    long v = vm[name].as<long>();
    if (v < lo || v > hi) {
        std::ostringstream m;
        m << "--" << name << " must be in [" << lo << ", " << hi << "], got " << v;
        throw UsageError(m.str());
    }
    return v;
}

OutputFormat format_option(const po::variables_map &vm, const std::vector<OutputFormat> &allowed) {
    try {
        return parse_output_format(vm["format"].as<std::string>(), allowed);
    } catch (const std::invalid_argument &e) {
        throw UsageError(e.what());
    }
}

std::vector<std::string> plugin_paths(const po::variables_map &vm) {
    std::vector<std::string> paths;
    if (!vm.count("no-default-plugins")) paths = default_plugin_dirs();
    return paths;
}

// Loads the default path (missing dirs ignored) and the user's paths (which
// must exist). Refusals are fatal for run and serve; a helper library in a
// plugin directory is not, and is named once on stderr.
std::vector<LoadFailure> load_all(Registry &registry, const po::variables_map &vm,
                                  const std::vector<std::string> &extra) {
    std::vector<LoadSkip> skipped;
    auto failures = load_plugins(registry, plugin_paths(vm), false, &skipped);
    std::vector<std::string> user = extra;
    if (vm.count("plugin-dir"))
        for (const auto &p : vm["plugin-dir"].as<std::vector<std::string>>())
            user.push_back(p);
    auto more = load_plugins(registry, user, true, &skipped);
    failures.insert(failures.end(), more.begin(), more.end());
    for (const auto &s : skipped)
        std::fprintf(stderr, "cmdbench: %s\n", skip_warning(s).c_str());
    return failures;
}

bool report_failures(const std::vector<LoadFailure> &failures) {
    for (const auto &f : failures)
        std::fprintf(stderr, "cmdbench: plugin refused: %s\n", f.reason.c_str());
    return !failures.empty();
}

// Checked before anything loads or runs: a bad port is a typo, not a run.
std::string checked_server(const std::string &spec) {
    HostPort hp;
    const std::string bad = parse_host_port(spec, kDefaultControlPort, hp);
    if (!bad.empty())
        throw UsageError("--server expects " + std::string(kHostPortForms) + ", got '" + spec +
                         "': " + bad);
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

// In matrix mode the ranks are the servers: a server named elsewhere has no place.
bool matrix_usable(const RunOptions &opt, const Scenario &scenario) {
    std::string why;
    if (!opt.server.empty()) why = "--server cannot be used under a launcher (matrix mode)";
    for (const RunSpec &r : scenario.runs)
        if (why.empty() && !r.server.empty())
            why = scenario.path + ": run '" + r.name + "' names server '" + r.server +
                  "', which cannot be used under a launcher (matrix mode: the ranks serve)";
    for (const RunSpec &r : scenario.runs) {
        if (why.empty() && !r.rails.empty() && !r.rails_all)
            why = scenario.path + ": run '" + r.name +
                  "' lists its rails, which name one machine's addresses; under a launcher "
                  "(matrix mode) use rails = \"all\": each rank's own RDMA devices";
        if (why.empty() && !r.expect.empty())
            why = scenario.path + ": run '" + r.name +
                  "' has expectations (`expect`), which are not judged under a launcher "
                  "(matrix mode); run the pairs one at a time for an acceptance run";
    }
    if (why.empty()) return true;
    std::fprintf(stderr, "cmdbench: %s\n", why.c_str());
    return false;
}

int cmd_run(const std::vector<std::string> &args) {
    po::positional_options_description pos;
    pos.add("positional", -1);
    auto desc = run_options();
    auto vm = parse(desc, args, &pos);
    if (vm.count("help")) {
        std::cout << "Usage: cmdbench run SCENARIO [options]\n\n" << desc << kRunExitStatus;
        return 0;
    }
    if (!vm.count("positional"))
        throw UsageError("run needs a scenario file: cmdbench run SCENARIO.toml");
    auto positional = vm["positional"].as<std::vector<std::string>>();
    if (positional.size() != 1)
        throw UsageError("run takes one scenario file, got " + std::to_string(positional.size()));
    const std::string path = positional[0];

    RunOptions opt;
    opt.format = format_option(vm, {OutputFormat::Table, OutputFormat::Json, OutputFormat::Csv});
    if (vm.count("server")) opt.server = checked_server(vm["server"].as<std::string>());
    if (vm.count("output")) opt.output = vm["output"].as<std::string>();
    if (vm.count("report")) opt.report = vm["report"].as<std::string>();
    opt.quiet = vm.count("quiet") > 0;
    opt.allow_skip = vm.count("allow-skip") > 0;
    opt.token = token_of(vm);
    std::vector<std::string> overrides;
    if (vm.count("set")) overrides = vm["set"].as<std::vector<std::string>>();
    // Before loading or running anything: an hour of runs must not end in
    // "cannot write".
    if (!outputs_writable({{"-o", opt.output}, {"--report", opt.report}})) return kExitUsage;

    Registry registry;
    Scenario scenario;
    try {
        // Read once: a scenario from a pipe has no second reading.
        const std::string text = read_scenario_file(path);
        auto failures = load_all(registry, vm, scenario_plugins_in(text, path));
        if (report_failures(failures)) return kExitUsage;
        scenario = parse_scenario(text, path, registry, overrides);
    } catch (const ScenarioError &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return kExitUsage;
    } catch (const std::exception &e) { // anything the parsers let through: no abort
        std::fprintf(stderr, "cmdbench: %s: cannot load: %s\n", path.c_str(), e.what());
        return kExitUsage;
    }
    if (vm.count("pattern")) apply_pattern_option(vm["pattern"].as<std::string>(), scenario);
    // Under a launcher with two or more ranks: matrix mode (docs/matrix.md).
    std::unique_ptr<Job> job;
    try {
        job = join_job();
    } catch (const JobError &e) {
        std::fprintf(stderr, "cmdbench: %s\n", e.what());
        return kExitUsage;
    }
    const bool matrix = job && job->size() >= 2;
    if (matrix && !matrix_usable(opt, scenario)) return kExitUsage;
    // A CPU or NUMA node this machine lacks is a scenario error, before
    // anything runs; a named server checks its own side (server.cpp).
    try {
        check_placement_here(scenario, opt.server.empty() || matrix);
    } catch (const ScenarioError &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return kExitUsage;
    }
    if (!matrix && scenario.matrix.given)
        std::fprintf(stderr, "cmdbench: note: [matrix] is ignored without a launcher of two or "
                             "more ranks (single-pair run)\n");
    const auto &interrupted = install_interrupt_handler();
    RunContext context = collect_context();
    context.cmdbench_version = CMDBENCH_VERSION;
    context.scenario_path = path;
    context.scenario_text = to_toml(scenario);
    for (const auto &lp : registry.plugins())
        context.plugins.push_back(
            {lp.desc->name, lp.desc->version, lp.file, lp.desc->abi_major, lp.desc->abi_minor});
    if (matrix) return run_matrix(*job, scenario, registry, context, opt, interrupted);
    return run_scenario(scenario, registry, context, opt, interrupted);
}

// Exit 2 with the message: the inputs do not line up, or cannot be read.
// Messages quote the files' text (a key, a variant, a status), so escaped.
int compare_refused(const std::string &what, const std::vector<std::string> &files) {
    std::fprintf(stderr, "cmdbench: cannot compare: %s\n", printable_text(what).c_str());
    for (size_t i = 0; i < files.size() && files.size() > 1; ++i)
        std::fprintf(stderr, "  input %zu: %s\n", i + 1, printable_text(files[i]).c_str());
    return kExitUsage;
}

int cmd_compare(const std::vector<std::string> &args) {
    po::positional_options_description pos;
    pos.add("positional", -1);
    auto desc = compare_options();
    auto vm = parse(desc, args, &pos);
    if (vm.count("help")) {
        std::cout << "Usage: cmdbench compare FILE.json... [options]\n\n" << desc;
        return 0;
    }
    if (!vm.count("positional"))
        throw UsageError("compare needs results files: cmdbench compare A.json B.json");
    const auto files = vm["positional"].as<std::vector<std::string>>();
    const OutputFormat format = format_option(vm, {OutputFormat::Table, OutputFormat::Json});
    CompareOptions options;
    if (vm.count("baseline")) options.baseline = vm["baseline"].as<std::string>();
    options.common_only = vm.count("common") > 0;
    if (vm.count("report") && !outputs_writable({{"--report", vm["report"].as<std::string>()}}))
        return kExitUsage;

    std::vector<Report> reports;
    std::vector<const Report *> inputs;
    Comparison c;
    std::string reading; // the file being read, for an exception the reader lets through
    try {
        for (const auto &f : files) {
            reading = f;
            reports.push_back(read_results_file(f));
        }
        reading.clear();
        for (const auto &r : reports)
            inputs.push_back(&r);
        c = build_comparison(inputs, options);
    } catch (const ResultsError &e) {
        return compare_refused(e.what(), {});
    } catch (const CompareError &e) {
        const std::string what = e.what();
        compare_refused(what, files);
        if (!options.common_only && what.rfind("unknown baseline", 0) != 0)
            std::fprintf(stderr, "(--common compares only the groups and sizes every input has)\n");
        return kExitUsage;
    } catch (const std::exception &e) {
        return compare_refused(reading.empty() ? e.what() : reading + ": " + e.what(), {});
    }
    // The saved expectations (runs[].expect), judged again on each file's
    // own runs: the same verdicts `run` gave, kept with the files.
    std::vector<ExpectVerdict> verdicts;
    for (const auto &r : reports)
        for (auto &v : evaluate_expectations(r))
            verdicts.push_back(std::move(v));
    if (format == OutputFormat::Json) {
        write_comparison_json(std::cout, c, verdicts);
    } else {
        write_comparison_table(std::cout, c);
        if (!verdicts.empty()) {
            std::cout << '\n';
            write_verdicts_table(std::cout, verdicts);
        }
    }
    if (vm.count("report")) {
        const std::string html = vm["report"].as<std::string>();
        std::ostringstream page;
        write_html_report(page, c, inputs);
        const std::string why = write_output(html, page.str());
        if (!why.empty()) {
            std::fprintf(stderr, "cmdbench: cannot write %s: %s\n", html.c_str(), why.c_str());
            return kExitRunFailed;
        }
    }
    return all_held(verdicts) ? 0 : kExitExpectation;
}

int cmd_serve(const std::vector<std::string> &args) {
    auto desc = serve_options();
    auto vm = parse(desc, args);
    if (vm.count("help")) {
        std::cout << "Usage: cmdbench serve [options]\n\n" << desc;
        return 0;
    }
    ServeOptions opt;
    opt.bind = vm["bind"].as<std::string>();
    // An empty list (an unset $ADDR, "," or " ") would reach the listener as
    // "any address": listening on every interface must be asked for by name.
    if (opt.bind.find_first_not_of(", ") == std::string::npos)
        throw UsageError("--bind names no address ('" + opt.bind +
                         "'): give an address, a name or a comma-separated list; 0.0.0.0 or :: "
                         "to listen on every interface");
    opt.port = uint16_t(in_range(vm, "port", 0, 65535));
    opt.idle_timeout_s = int(in_range(vm, "idle-timeout", 1, 86400));
    opt.max_clients = int(in_range(vm, "max-clients", 1, 1024));
    opt.once = vm.count("once") > 0;
    opt.quiet = vm.count("quiet") > 0;
    opt.ready_fd = vm["ready-fd"].as<int>();
    opt.token = token_of(vm);
    Registry registry;
    if (report_failures(load_all(registry, vm, {}))) return kExitUsage;
    try {
        opt.limits = limits_from_options(
            vm.count("limit") ? vm["limit"].as<std::vector<std::string>>()
                              : std::vector<std::string>{},
            vm.count("allow-privileged-ports") > 0, vm.count("no-limits") > 0, registry);
        if (vm.count("max-memory")) {
            const std::string note = apply_memory_limit(
                parse_byte_count(vm["max-memory"].as<std::string>(), "--max-memory"));
            if (!note.empty()) std::fprintf(stderr, "cmdbench serve: %s\n", note.c_str());
        }
    } catch (const std::invalid_argument &e) {
        throw UsageError(e.what());
    }
    const std::string warning = exposure_warning(opt.bind, !opt.token.empty());
    if (!warning.empty()) std::fprintf(stderr, "cmdbench serve: %s\n", warning.c_str());
    const auto &interrupted = install_interrupt_handler();
    return serve(registry, opt, interrupted);
}

int cmd_plugins(const std::vector<std::string> &args) {
    auto desc = plugins_options();
    auto vm = parse(desc, args);
    if (vm.count("help")) {
        std::cout << "Usage: cmdbench plugins [options]\n\n" << desc;
        return 0;
    }
    Registry registry;
    auto failures = load_all(registry, vm, {});
    if (vm.count("json"))
        list_plugins_json(std::cout, registry, failures);
    else
        list_plugins_text(std::cout, registry, failures);
    return failures.empty() ? 0 : 1;
}

// <exe dir>/../libexec/cmdbench, in the build tree and an installed tree alike.
std::string frontend_dir() {
    try {
        return (std::filesystem::path(self_executable()).parent_path() / CMDBENCH_FRONTEND_RELDIR)
            .lexically_normal()
            .string();
    } catch (const std::exception &) {
        return "";
    }
}

std::string frontend_path(const std::string &command) {
    std::string dir = frontend_dir();
    if (dir.empty()) return "";
    std::string exe = dir + "/cmdbench-" + command;
    return access(exe.c_str(), X_OK) == 0 ? exe : "";
}

std::string frontend_list() {
    std::string names;
    std::error_code ec;
    for (const auto &e : std::filesystem::directory_iterator(frontend_dir(), ec)) {
        std::string name = e.path().filename().string();
        if (name.rfind("cmdbench-", 0) == 0) names += ", " + name.substr(9);
    }
    return names;
}

int help(const std::string &command) {
    if (command == "run")
        std::cout << "Usage: cmdbench run SCENARIO [options]\n\n"
                  << run_options() << kRunExitStatus;
    else if (command == "serve")
        std::cout << "Usage: cmdbench serve [options]\n\n" << serve_options();
    else if (command == "plugins")
        std::cout << "Usage: cmdbench plugins [options]\n\n" << plugins_options();
    else if (command == "compare")
        std::cout << "Usage: cmdbench compare FILE.json... [options]\n\n" << compare_options();
    else if (command == "job")
        print_job_help(std::cout);
    else {
        std::cout << kMainHelp;
        return command.empty() ? 0 : kExitUsage;
    }
    return 0;
}

} // namespace

int cli_main(int argc, char **argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::cerr << kMainHelp;
        return kExitUsage;
    }
    std::string command = args[0];
    args.erase(args.begin());
    try {
        if (command == "-h" || command == "--help") return help("");
        if (command == "help") return help(args.empty() ? "" : args[0]);
        if (command == "--version" || command == "version") {
            std::cout << "cmdbench " << CMDBENCH_VERSION << " (plugin ABI " << CMDBENCH_ABI_MAJOR
                      << "." << CMDBENCH_ABI_MINOR << ")\n";
            return 0;
        }
        if (command == "run") return cmd_run(args);
        if (command == "serve") return cmd_serve(args);
        if (command == "plugins") return cmd_plugins(args);
        if (command == "compare") return cmd_compare(args);
        if (command == "job") return cmd_job(args);
        // Front ends (e.g. `cmdbench rstream`) are executables of their own.
        if (command.find('/') == std::string::npos && command[0] != '-') {
            std::string exe = frontend_path(command);
            if (!exe.empty()) {
                std::vector<char *> argv2{exe.data()};
                for (auto &a : args)
                    argv2.push_back(a.data());
                argv2.push_back(nullptr);
                execv(exe.c_str(), argv2.data());
                throw UsageError("cannot start " + exe + ": " + std::strerror(errno));
            }
        }
        throw UsageError("unknown command '" + command +
                         "' (commands: run, compare, serve, plugins, job, help" + frontend_list() +
                         ")");
    } catch (const UsageError &e) {
        bool known =
            command == "run" || command == "serve" || command == "plugins" || command == "compare";
        std::string hint = known ? "help " + command : "--help";
        std::fprintf(stderr, "cmdbench: %s\nTry 'cmdbench %s'.\n", e.what(), hint.c_str());
        return kExitUsage;
    }
}

} // namespace cmdbench
