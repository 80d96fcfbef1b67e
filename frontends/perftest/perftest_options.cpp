// perftest's command line: getopt_long over every option any of the eight
// tools lists, so that an option of perftest cmdbench does not take is
// refused by its name rather than as unknown.
#include "perftest_options.hpp"

#include "perftest_values.hpp"

#include <cstring>
#include <getopt.h>

namespace cmdbench::perftest_frontend {
namespace {

// Long-only options get codes above the character range.
constexpr int kLongBase = 0x100;
// cmdbench's additions.
constexpr int kResults = 'o';
constexpr int kReport = 0x1000;
constexpr int kTimeout = 0x1001;

std::vector<option> long_options() {
    std::vector<option> list;
    const auto &specs = option_specs();
    for (size_t i = 0; i < specs.size(); ++i) {
        const OptionSpec &s = specs[i];
        if (s.short_name == 'o') continue; // -o is cmdbench's results file; --outs stays
        list.push_back({s.long_name, s.has_arg ? required_argument : no_argument, nullptr,
                        s.short_name ? s.short_name : kLongBase + int(i)});
    }
    list.push_back({"outs", required_argument, nullptr, kLongBase + 0xff});
    list.push_back({"report", required_argument, nullptr, kReport});
    list.push_back({"timeout", required_argument, nullptr, kTimeout});
    list.push_back({nullptr, 0, nullptr, 0});
    return list;
}

std::string short_options() {
    std::string s = ":o:";
    for (const OptionSpec &spec : option_specs())
        if (spec.short_name && spec.short_name != 'o') {
            s += spec.short_name;
            if (spec.has_arg) s += ':';
        }
    return s;
}

const OptionSpec *spec_of(int code) {
    const auto &specs = option_specs();
    if (code == kLongBase + 0xff) {
        for (const OptionSpec &s : specs)
            if (s.short_name == 'o') return &s;
    }
    if (code >= kLongBase && code < kLongBase + int(specs.size())) return &specs[code - kLongBase];
    for (const OptionSpec &s : specs)
        if (s.short_name && s.short_name == code) return &s;
    return nullptr;
}

// What getopt could not read: an unknown option or a missing argument.
[[noreturn]] void getopt_failure(int code, char **argv, const Tool &tool) {
    const std::string text = optind > 0 ? argv[optind - 1] : "";
    if (code == ':') throw UsageError("option " + text + " needs an argument");
    if (optopt && optopt < kLongBase)
        throw UsageError(std::string("-") + char(optopt) + " is not an option of " + tool.name);
    throw UsageError("unrecognized option '" + text + "' (not an option of " + tool.name + ")");
}

void take_option(Options &o, const OptionSpec &s, const char *arg, const Tool &tool) {
    const std::string name = option_name(s);
    if (!(s.tools & tool.bit))
        throw UsageError(name + " is not an option of " + tool.name + " (perftest's " + tool.name +
                         " --help does not list it)");
    if (s.support == Support::Refused)
        throw UsageError(name + " is not supported by cmdbench " + tool.name);
    o.given.insert(s.long_name);
    apply_value(o, s, arg ? arg : "");
}

} // namespace

Options parse_options(const Tool &tool, int argc, char **argv) {
    Options o;
    o.tool = &tool;
    o.sizes = {tool.size};
    o.iterations = tool.iterations;
    const std::vector<option> longs = long_options();
    const std::string shorts = short_options();
    optind = 1;
    opterr = 0;
    for (;;) {
        const int c = getopt_long(argc, argv, shorts.c_str(), longs.data(), nullptr);
        if (c == -1) break;
        if (c == '?' || c == ':') getopt_failure(c, argv, tool);
        if (c == kResults) {
            o.results_file = optarg;
        } else if (c == kReport) {
            o.report_file = optarg;
        } else if (c == kTimeout) {
            o.timeout_s = timeout_value(optarg);
        } else if (const OptionSpec *s = spec_of(c)) {
            take_option(o, *s, optarg, tool);
        }
    }
    if (optind < argc) o.server = argv[optind++];
    if (optind < argc)
        throw UsageError(std::string("one server name only: '") + argv[optind] + "' is extra");
    check_combinations(o);
    return o;
}

double run_timeout(const Options &o) {
    if (o.timeout_s > 0) return o.timeout_s;
    return o.run_infinitely ? 86400 : 3600;
}

} // namespace cmdbench::perftest_frontend
