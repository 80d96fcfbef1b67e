// What the subcommands of `cmdbench` share: the usage error, the plugin and
// token options, parsing with range checks, and loading the plugins.
#pragma once
#include "cmdbench/base/usage_error.hpp"
#include "cmdbench/host/plugins/plugin_loader.hpp"
#include "cmdbench/report/output_format.hpp"

#include <boost/program_options.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace cmdbench::cli {

namespace po = boost::program_options;

// A bad command line: cli_main prints it with a hint and exits 2.
using cmdbench::UsageError;

po::options_description plugin_options();
po::options_description token_options(const char *what);
// The token of --token-file, --token or CMDBENCH_TOKEN; "" when none.
std::string token_of(const po::variables_map &vm);

// Parses args (adding --help); po errors become UsageError.
po::variables_map parse(const po::options_description &desc, const std::vector<std::string> &args,
                        const po::positional_options_description *pos = nullptr);
// The long option NAME, refused with the allowed range when outside [lo, hi].
long in_range(const po::variables_map &vm, const char *name, long lo, long hi);
FormatRef format_option(const po::variables_map &vm, unsigned uses);

// Loads the default path (missing dirs ignored) and the user's paths (which
// must exist). Refusals are fatal for run and serve; a helper library in a
// plugin directory is not, and is named once on stderr.
std::vector<LoadFailure> load_all(Registry &registry, const po::variables_map &vm,
                                  const std::vector<std::string> &extra);
// Prints each refusal; true when there was one.
bool report_failures(const std::vector<LoadFailure> &failures);

} // namespace cmdbench::cli
