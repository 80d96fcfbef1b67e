// `cmdbench rstream`: loads the plugins, maps rstream's options to the
// pingpong test's and the transport's parameters, and runs one role.
#include "rstream_run.hpp"

#include "cmdbench/host/cli/interrupt.hpp"
#include "cmdbench/host/params/params.hpp"
#include "cmdbench/host/plugins/host_services.hpp"
#include "cmdbench/host/plugins/plugin_loader.hpp"
#include "cmdbench/host/run/role_run.hpp"
#include "cmdbench/report/fixed_columns.hpp"
#include "rstream_status.hpp"
#include "rstream_transport.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <netdb.h>
#include <string>
#include <unistd.h>

namespace cmdbench::rstream_frontend {
namespace {

constexpr int kExitFailure = 255; // rstream: a failed call returned -1
constexpr int kExitInterrupted = 130;

std::string transport_name(const Options &o) {
    return o.sockets ? "tcp" : "rsocket";
}

bool declares(const cmdbench_transport *t, const std::string &key) {
    for (uint32_t i = 0; i < t->param_count; ++i)
        if (key == t->params[i].name) return true;
    return false;
}

std::string int_list(const std::vector<int64_t> &v) {
    return cmdbench::to_text(v);
}

cmdbench::WireParams wire_params(const Options &o, const cmdbench_transport *t) {
    cmdbench::WireParams w;
    if (o.custom) {
        w.emplace_back("suite", "\"custom\"");
        w.emplace_back("sizes", int_list({o.transfer_size}));
        w.emplace_back("iterations", std::to_string(o.iterations));
        w.emplace_back("transfer_count", std::to_string(o.transfer_count));
        w.emplace_back("hint", "\"none\""); // rstream sets no inline size in custom mode
    } else {
        w.emplace_back("suite", "\"rstream\"");
        w.emplace_back("sizes", int_list(suite_sizes(o.all_sizes)));
    }
    w.emplace_back("port", std::to_string(o.port));
    if (!o.server.empty() && !o.bind.empty()) w.emplace_back("client_bind", "\"" + o.bind + "\"");
    w.emplace_back("verify", o.verify ? "true" : "false");
    w.emplace_back("blocking", o.blocking ? "true" : "false");
    w.emplace_back("async", o.async ? "true" : "false");
    // A client given -T f just uses kernel sockets (-T s), as rstream's.
    w.emplace_back("fork", o.fork && o.server.empty() ? "true" : "false");
    // Transport parameters, for the ones this transport has.
    const std::pair<const char *, std::string> tp[] = {
        {"buffer_size", std::to_string(o.buffer_size ? o.buffer_size : 524288)},
        {"inline_size", std::to_string(o.inline_size)},
        {"keepalive", std::to_string(o.keepalive)},
        {"nodelay", "true"},
        {"resolver", o.resolve ? "\"rdma\"" : "\"getaddrinfo\""},
        {"address_format", o.format.empty() ? "\"name\"" : "\"" + o.format + "\""},
    };
    for (const auto &[key, value] : tp)
        if (declares(t, key)) w.emplace_back(key, value);
    return w;
}

// rstream resolves before it connects or listens, and a resolver failure is
// its own exit status (the code modulo 256). Checked up front here for the
// getaddrinfo path, so the status matches.
int check_resolvable(const Options &o) {
    if (o.resolve) return 0; // rdma_getaddrinfo: the transport reports it
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV | (o.format == "ip" ? AI_NUMERICHOST : 0);
    const std::string port = std::to_string(o.port);
    auto lookup = [&](const std::string &node, bool passive, const char *label) {
        addrinfo h = hints;
        if (passive) h.ai_flags |= AI_PASSIVE;
        addrinfo *res = nullptr;
        int rc = getaddrinfo(node.empty() ? nullptr : node.c_str(), port.c_str(), &h, &res);
        if (rc == 0) {
            freeaddrinfo(res);
            return 0;
        }
        std::printf("%s: %s\n", label, gai_strerror(rc));
        return rc & 0xff;
    };
    if (o.server.empty()) return lookup(o.bind, true, "getaddrinfo");
    if (int rc = lookup(o.server, false, "getaddrinfo")) return rc;
    return o.bind.empty() ? 0 : lookup(o.bind, true, "getaddrinfo src_addr");
}

void report_failure(const std::string &error) {
    // rstream prints a verify mismatch on stdout, failed calls on stderr.
    if (error.rfind("data verification failed", 0) == 0)
        std::printf("%s\n", error.c_str());
    else
        std::fprintf(stderr, "%s\n", error.c_str());
    std::fflush(stdout);
}

// An AF_IB address (-f gid) fails with ENODEV on devices whose ports are not
// InfiniBand (RoCE, iWARP: Soft-RoCE's rxe0 in the lab), in rstream too
// ("rbind: No such device"): say why, after rstream's own message.
void explain_gid_failure(const Options &o, const std::string &error) {
    static const std::string kNoDevice = std::string(": ") + std::strerror(ENODEV);
    if (o.format != "gid" || error.size() < kNoDevice.size() ||
        error.compare(error.size() - kNoDevice.size(), kNoDevice.size(), kNoDevice) != 0)
        return;
    std::fprintf(stderr, "cmdbench rstream: -f gid: no RDMA device takes this AF_IB address; "
                         "the RDMA CM supports AF_IB on InfiniBand ports only, not on RoCE or "
                         "iWARP devices (such as Soft-RoCE's rxe)\n");
}

void load_rstream_plugins(cmdbench::Registry &registry) {
    std::vector<cmdbench::LoadSkip> skipped;
    for (const auto &f : cmdbench::load_plugins(
             registry, cmdbench::frontend_plugin_dirs(CMDBENCH_FRONTEND_PLUGIN_RELDIR), false,
             &skipped))
        // The reason names the file already ("FILE: ...").
        std::fprintf(stderr, "cmdbench rstream: plugin refused: %s\n", f.reason.c_str());
    for (const auto &s : skipped)
        std::fprintf(stderr, "cmdbench rstream: %s\n", cmdbench::skip_warning(s).c_str());
}

// The pingpong test and the transport that -T picks, with rstream's
// additions; false, having said which is missing, when one is.
bool find_test_and_transport(const Options &o, const cmdbench::Registry &registry,
                             cmdbench::RoleSetup &setup) {
    const cmdbench_test *test = registry.find_test("pingpong");
    const std::string tname = transport_name(o);
    const cmdbench_transport *plugin_transport = registry.find_transport(tname);
    if (!test || !plugin_transport) {
        std::fprintf(stderr, "cmdbench rstream: %s not found; is the %s plugin installed?\n",
                     test ? ("transport '" + tname + "'").c_str() : "test 'pingpong'",
                     test ? tname.c_str() : "stream");
        return false;
    }
    TransportAdditions additions;
    additions.keepalive_lines = o.keepalive > 0;
    additions.plain_socket_calls = tname == "tcp";
    setup.test = test;
    setup.transport = rstream_transport(plugin_transport, additions);
    return true;
}

// rstream's exit status for a run that did not succeed, having said why.
int failed_run_status(const Options &o, const cmdbench::Execution &ex,
                      const std::atomic<bool> &interrupted) {
    report_failure(ex.error);
    explain_gid_failure(o, ex.error);
    if (ex.abandoned) {
        std::fflush(nullptr);
        _exit(interrupted ? kExitInterrupted : kExitFailure);
    }
    if (ex.status == cmdbench::RunStatus::Interrupted) return kExitInterrupted;
    return ex.status == cmdbench::RunStatus::Failed ? failure_status(ex.error) : kExitFailure;
}

} // namespace

int run_rstream(const Options &o) {
    const bool client = !o.server.empty();
    cmdbench::Registry registry;
    load_rstream_plugins(registry);
    cmdbench::RoleSetup setup;
    if (!find_test_and_transport(o, registry, setup)) return kExitFailure;

    // rstream's table, as the console table prints the stream plugin's rows.
    const cmdbench::FixedLayout &layout = cmdbench::rstream_layout();
    std::printf("%s\n", cmdbench::fixed_header(layout).c_str());
    std::fflush(stdout);
    if (int rc = check_resolvable(o)) return rc;

    auto params =
        cmdbench::params_from_text(setup.test, setup.transport, wire_params(o, setup.transport));
    if (!params) {
        std::fprintf(stderr, "cmdbench rstream: %s\n", params.error().c_str());
        return kExitFailure;
    }
    setup.inputs.params = std::move(*params);
    const std::atomic<bool> &interrupted = cmdbench::install_interrupt_handler();
    setup.inputs.interrupted = &interrupted;
    setup.inputs.log_prefix = "cmdbench rstream: ";
    const bool custom = o.custom;
    // rstream calls a custom run "custom".
    setup.inputs.on_row = [custom, &layout](const cmdbench::Row &row) {
        std::printf("%s\n", cmdbench::fixed_row(layout, row, custom ? "custom" : row.name).c_str());
        std::fflush(stdout);
    };
    cmdbench::RoleRun role(std::move(setup));
    if (auto skipped = role.probe()) {
        std::fprintf(stderr, "%s\n", skipped->error.c_str());
        return kExitFailure;
    }
    role.start_clock(o.timeout_s);
    cmdbench::Execution ex = role.run(client ? CMDBENCH_ROLE_CLIENT : CMDBENCH_ROLE_SERVER,
                                      client ? o.server : o.bind, nullptr);
    if (ex.status == cmdbench::RunStatus::Ok) return 0;
    return failed_run_status(o, ex, interrupted);
}

} // namespace cmdbench::rstream_frontend
