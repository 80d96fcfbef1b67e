// `cmdbench serve`: serve runs for `cmdbench run --server` clients.
#include "cli_options.hpp"
#include "cmdbench/control/host_port.hpp"
#include "cmdbench/host/cli/interrupt.hpp"
#include "cmdbench/host/run/exit_status.hpp"
#include "cmdbench/host/serve/serve_exposure.hpp"
#include "cmdbench/host/serve/serve_limits.hpp"
#include "cmdbench/host/serve/server.hpp"
#include "commands.hpp"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace cmdbench::cli {
namespace {

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

} // namespace

void print_serve_help(std::ostream &out) {
    out << "Usage: cmdbench serve [options]\n\n" << serve_options();
}

// Every address is listened on only when asked for by name: "0", "0x0",
// "*" or "::0" would listen on every interface just the same, unnoticed.
void check_bind_spelling(const std::string &bind) {
    std::istringstream items(bind);
    std::string item;
    while (std::getline(items, item, ',')) {
        item.erase(0, item.find_first_not_of(' '));
        item.erase(item.find_last_not_of(' ') + 1);
        if (item == "0.0.0.0" || item == "::" || !names_every_address(item)) continue;
        throw UsageError("--bind '" + item +
                         "' means every address: write 0.0.0.0 (every IPv4 address) or :: "
                         "(every address) to listen on every interface, or give one address");
    }
}

int cmd_serve(const std::vector<std::string> &args) {
    auto desc = serve_options();
    auto vm = parse(desc, args);
    if (vm.count("help")) {
        print_serve_help(std::cout);
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
    check_bind_spelling(opt.bind);
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
            const std::string text = vm["max-memory"].as<std::string>();
            const std::string note =
                apply_memory_limit(parse_byte_count(text, "--max-memory"), text);
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

} // namespace cmdbench::cli
