// One side of the run (see perftest_run.hpp).
#include "perftest_run.hpp"

#include "cmdbench/control/printable_text.hpp"
#include "cmdbench/host/cli/interrupt.hpp"
#include "cmdbench/host/machine/cpu_usage.hpp"
#include "cmdbench/host/plugins/host_services.hpp"
#include "cmdbench/host/plugins/plugin_loader.hpp"
#include "cmdbench/host/run/control_peer.hpp"
#include "cmdbench/host/run/role_run.hpp"
#include "cmdbench/host/run/status_code.hpp"
#include "perftest_link.hpp"
#include "perftest_liveness.hpp"
#include "perftest_output.hpp"
#include "perftest_params.hpp"
#include "perftest_side.hpp"

#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace cmdbench::perftest_frontend {
namespace {

const cmdbench_test *load_test(const Options &o, Registry &registry) {
    std::vector<LoadSkip> skipped;
    for (const auto &f : load_plugins(
             registry, frontend_plugin_dirs(CMDBENCH_FRONTEND_PLUGIN_RELDIR), false, &skipped))
        std::fprintf(stderr, "cmdbench %s: plugin refused: %s\n", o.tool->name, f.reason.c_str());
    const cmdbench_test *test = registry.find_test(test_name(*o.tool));
    if (!test)
        std::fprintf(stderr, "cmdbench %s: test '%s' not found; is the verbs plugin installed?\n",
                     o.tool->name, test_name(*o.tool));
    return test;
}

void print(const std::string &text) {
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
}

// The header and the column line, once: when the first row arrives (the
// QPs are connected by then, so the header shows what the run got), or
// when the run ends without one.
struct Heading {
    const Options &o;
    RoleRun *role = nullptr;
    bool done = false;
    void print_once() {
        if (done) return;
        done = true;
        if (!o.output.empty()) return; // --output: the figure alone
        print(header_block(o, !o.client(), role ? role->settings() : RunSettings{}));
        print(column_line(o) + "\n");
    }
};

RoleSetup role_setup(const Options &o, const cmdbench_test *test, ParamMap params,
                     const std::atomic<bool> &interrupted, std::string &printed, Heading &heading) {
    RoleSetup setup;
    setup.test = test;
    setup.inputs.params = std::move(params);
    setup.inputs.interrupted = &interrupted;
    setup.inputs.log_prefix = std::string("cmdbench ") + o.tool->name + ": ";
    // Each size's line as it ends; with --run_infinitely, each window's.
    setup.inputs.on_row = [&o, &printed, &heading](const Row &row) {
        const std::string text = row_line(o, row);
        if (text.empty()) return;
        heading.print_once();
        print(text + "\n");
        printed += text + "\n";
    };
    setup.run_label = o.tool->name;
    return setup;
}

// The peer's outcome joins ours: its failure is ours too, and when both
// failed, the peer's Ctrl-C is why (this side only saw the run end).
void take_peer_end(SideResult &r, const Link &link, const control::RunEnd &theirs) {
    if (theirs.status == CMDBENCH_OK) return;
    const RunStatus peer = status_from_code(theirs.status);
    if (r.status == RunStatus::Ok) {
        r.status = peer;
        r.error = link.label + ": " + theirs.error;
    } else if (peer == RunStatus::Interrupted && r.status != RunStatus::Interrupted) {
        r.error = link.label + " was interrupted (" + theirs.error + "); here: " + r.error;
    } else if (r.status != RunStatus::Interrupted &&
               r.error.find(theirs.error) == std::string::npos) {
        r.error += " (" + link.label + ": " + theirs.error + ")";
    }
}

// Runs the test against the peer and trades outcomes with it.
void run_with_peer(const Options &o, RoleRun &role, Link &link, SideResult &r) {
    ControlPeer control(*link.channel, link.label);
    Liveness live(std::move(link.beat), link.label);
    WatchedPeer peer(control, &live);
    role.start_clock(run_timeout(o));
    const Execution ex =
        role.run(o.client() ? CMDBENCH_ROLE_CLIENT : CMDBENCH_ROLE_SERVER, link.data_host, &peer);
    r.status = ex.status;
    r.error = ex.error;
    r.cpu_ours = role.cpu();
    r.abandoned = ex.abandoned;
    if (ex.abandoned) return; // the caller exits at once
    // A peer already known to be gone or stopped is why the test ended,
    // however the test put it, and gets a moment, not the run's time.
    const std::string gone = ex.peer_lost.empty() ? peer.lost().why : ex.peer_lost;
    if (!gone.empty() && r.status != RunStatus::Ok && r.status != RunStatus::Interrupted) {
        r.status = RunStatus::Failed;
        r.error = gone;
    }
    const int wait = gone.empty() ? int(std::max<int64_t>(remaining_ms(role.ctx()), 0) +
                                        int64_t(kGraceSeconds * 1000) + 1000)
                                  : 2000;
    try {
        control::RunEnd ours{status_code(ex.status), ex.error, cpu_seconds_to_us(r.cpu_ours.user_s),
                             cpu_seconds_to_us(r.cpu_ours.sys_s)};
        const control::RunEnd theirs = control.finish(ours, wait);
        r.cpu_peer.user_s = cpu_us_to_seconds(theirs.cpu_user_us);
        r.cpu_peer.sys_s = cpu_us_to_seconds(theirs.cpu_sys_us);
        take_peer_end(r, link, theirs);
    } catch (const control::ControlError &e) {
        if (r.status == RunStatus::Ok) r.status = RunStatus::Failed;
        if (gone.empty())
            r.error += std::string(r.error.empty() ? "" : "; ") + "lost " + link.label + " (" +
                       e.what() + ")";
    }
}

// The peer's text, safe to print, its newlines and tabs kept.
std::string printable_lines(const std::string &text) {
    std::string out, piece;
    for (char c : text) {
        if (c != '\n' && c != '\t') {
            piece += c;
            continue;
        }
        out += printable_text(piece) + c;
        piece.clear();
    }
    return out + printable_text(piece);
}

// The client's lines go to the server, which prints them as perftest's
// servers print the figures of a run (the verbs server measures nothing).
void share_lines(const Options &o, Link &link, const SideResult &r, const std::string &printed) {
    if (r.status != RunStatus::Ok || !link.channel) return;
    try {
        if (o.client()) {
            control::Writer w;
            w.str(printed);
            link.channel->send(control::Message{control::MsgType::Exchange, w.take()}, 2000);
            return;
        }
        const control::Message m = link.channel->recv(2000);
        control::Reader in(m.payload);
        if (m.type == control::MsgType::Exchange) print(printable_lines(in.str()));
    } catch (const control::ControlError &) {
        // the figures are the client's; its side has them
    }
}

// Meets the peer: the link, or nullopt having set r (interrupted, refused).
std::optional<Link> meet(const Options &o, const WireParams &wire,
                         const std::atomic<bool> &interrupted, SideResult &r) {
    try {
        if (o.client()) return connect_server(o, wire);
        if (o.output.empty())
            print("\n************************************\n* Waiting for client to connect... "
                  "*\n************************************\n");
        auto link = accept_client(o, wire, interrupted);
        if (!link) {
            r.status = RunStatus::Interrupted;
            r.error = "interrupted while waiting for a client";
        }
        return link;
    } catch (const std::exception &e) {
        r.status = RunStatus::Failed;
        r.error = e.what();
        return std::nullopt;
    }
}

} // namespace

int run_side(const Options &o) {
    Registry registry;
    const cmdbench_test *test = load_test(o, registry);
    if (!test) return kExitFailed;
    SideResult r;
    try {
        r.params = wire_params(o, *test);
    } catch (const UsageError &e) {
        std::fprintf(stderr, "cmdbench %s: %s\n", o.tool->name, e.what());
        return kExitUsage;
    }
    auto params = params_from_text(test, nullptr, r.params);
    if (!params) {
        std::fprintf(stderr, "cmdbench %s: %s\n", o.tool->name, params.error().c_str());
        return kExitUsage;
    }
    quiet_plugin_info(); // perftest prints no such lines
    const std::atomic<bool> &interrupted = install_interrupt_handler();
    const uint64_t started = monotonic_ns();
    std::optional<Link> link = meet(o, r.params, interrupted, r);
    if (link) {
        std::string printed;
        Heading heading{o};
        RoleRun role(role_setup(o, test, std::move(*params), interrupted, printed, heading));
        heading.role = &role;
        run_with_peer(o, role, *link, r);
        heading.print_once();
        if (r.abandoned) { // its thread still runs the test: nothing may wait for it
            report_outcome(o, r);
            std::fflush(nullptr);
            _exit(r.status == RunStatus::Interrupted ? kExitInterrupted : kExitFailed);
        }
        share_lines(o, *link, r, printed);
        r.rows = role.rows();
        r.settings = role.settings();
        if (o.output.empty()) print(std::string(rule()) + "\n");
    }
    r.wall_seconds = double(monotonic_ns() - started) / 1e9;
    const bool written = write_results(o, r, registry);
    const int status = report_outcome(o, r);
    return status == kExitOk && !written ? kExitFailed : status;
}

} // namespace cmdbench::perftest_frontend
