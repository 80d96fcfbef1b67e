// The subcommands of `cmdbench`, one file each (cmd_<name>.cpp), and the
// help each prints. A bad command line throws UsageError (cli_options.hpp).
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace cmdbench::cli {

int cmd_run(const std::vector<std::string> &args);
void print_run_help(std::ostream &out);

int cmd_compare(const std::vector<std::string> &args);
void print_compare_help(std::ostream &out);

int cmd_serve(const std::vector<std::string> &args);
void print_serve_help(std::ostream &out);

int cmd_plugins(const std::vector<std::string> &args);
void print_plugins_help(std::ostream &out);

// Under a launcher: every rank joins, rank 0 lists them (docs/cluster.md).
int cmd_job(const std::vector<std::string> &args);
void print_job_help(std::ostream &out);

} // namespace cmdbench::cli
