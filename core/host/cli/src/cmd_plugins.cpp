// `cmdbench plugins`: what loaded, what was refused, and why.
#include "cli_options.hpp"
#include "cmdbench/host/plugins/plugin_listing.hpp"
#include "commands.hpp"

#include <iostream>

namespace cmdbench::cli {
namespace {

po::options_description plugins_options() {
    po::options_description d("Options of `cmdbench plugins`");
    d.add_options()("json", "print JSON");
    d.add(plugin_options());
    return d;
}

} // namespace

void print_plugins_help(std::ostream &out) {
    out << "Usage: cmdbench plugins [options]\n\n" << plugins_options();
}

int cmd_plugins(const std::vector<std::string> &args) {
    auto desc = plugins_options();
    auto vm = parse(desc, args);
    if (vm.count("help")) {
        print_plugins_help(std::cout);
        return 0;
    }
    Registry registry;
    auto failures = load_all(registry, vm, {});
    if (vm.count("json"))
        list_plugins_json(std::cout, registry, failures);
    else
        list_plugins_text(std::cout, registry);
    // The listing is stdout's, so it can be piped; each refusal is a
    // diagnostic, on stderr in either format, after the listing on a terminal.
    std::cout.flush();
    return report_failures(failures) ? 1 : 0;
}

} // namespace cmdbench::cli
