#include "cli_options.hpp"

#include "cmdbench/host/run/token_source.hpp"

#include <cstdio>
#include <optional>
#include <sstream>

namespace cmdbench::cli {

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

po::variables_map parse(const po::options_description &desc, const std::vector<std::string> &args,
                        const po::positional_options_description *pos) {
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

FormatRef format_option(const po::variables_map &vm, unsigned uses) {
    try {
        return &parse_output_format(vm["format"].as<std::string>(), formats_for(uses));
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

} // namespace cmdbench::cli
