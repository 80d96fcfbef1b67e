#include "cmdbench/host/cli/cli.hpp"

#include "cli_options.hpp"
#include "cmdbench/control/printable_text.hpp"
#include "cmdbench/host/matrix/job.hpp"
#include "cmdbench/host/plugins/plugin_loader.hpp"
#include "cmdbench/host/run/exit_status.hpp"
#include "cmdbench/host/run/server_process.hpp"
#include "commands.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>
#include <thread>
#include <unistd.h>

namespace cmdbench {
namespace {

using cli::UsageError;
using namespace cli;

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
        print_run_help(std::cout);
    else if (command == "serve")
        print_serve_help(std::cout);
    else if (command == "plugins")
        print_plugins_help(std::cout);
    else if (command == "compare")
        print_compare_help(std::cout);
    else if (command == "job")
        print_job_help(std::cout);
    else {
        std::cout << kMainHelp;
        return command.empty() ? 0 : kExitUsage;
    }
    return 0;
}

} // namespace

namespace {

int dispatch(const std::string &command, std::vector<std::string> &args) {
    if (command == "-h" || command == "--help") return help("");
    if (command == "help") return help(args.empty() ? "" : args[0]);
    if (command == "--version" || command == "version") {
        std::cout << "cmdbench " << CMDBENCH_VERSION << " (plugin ABI " << CMDBENCH_ABI_MAJOR << "."
                  << CMDBENCH_ABI_MINOR << ")\n";
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
}

int usage_failure(const std::string &command, const UsageError &e) {
    // Every process a launcher started has this command line and this
    // mistake: the first says it, the others exit as it does. They give
    // it time to (mpirun ends a job at its first failed process, which
    // could be one of them before the first has said a word): the
    // launcher ends them when the first exits, else they do after 5 s.
    if (launcher_rank() > 0) {
        std::this_thread::sleep_for(std::chrono::seconds(5));
        return kExitUsage;
    }
    bool known =
        command == "run" || command == "serve" || command == "plugins" || command == "compare";
    std::string hint = known ? "help " + command : "--help";
    std::fprintf(stderr, "cmdbench: %s\nTry 'cmdbench %s'.\n", e.what(), hint.c_str());
    return kExitUsage;
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
        return dispatch(command, args);
    } catch (const UsageError &e) {
        return usage_failure(command, e);
    } catch (const std::bad_alloc &) {
        // Inputs that need more memory than the process may have (ulimit -v,
        // a container's limit): a message, not an abort. No allocation here.
        std::fputs("cmdbench: out of memory: an allocation failed (the process's memory "
                   "limit, e.g. ulimit -v, or the machine's)\n",
                   stderr);
        return kExitUsage;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "cmdbench: %s\n", printable_text(e.what()).c_str());
        return kExitUsage;
    }
}

} // namespace cmdbench
