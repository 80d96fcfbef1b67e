// cmdbench cmtime under a launcher (see cmtime_launcher.hpp).
#include "cmtime_launcher.hpp"

#include "cmdbench/cmtime/cm_engine.hpp"
#include "cmdbench/host/matrix/job.hpp"
#include "cmtime_faults.hpp"
#include "cmtime_instance.hpp"
#include "cmtime_job_report.hpp"
#include "cmtime_node_address.hpp"

#include <algorithm>
#include <memory>

namespace cmdbench::cmtime_frontend {
namespace {

constexpr double kRefusalBarrierS = 10;
constexpr int kVerdictGraceMs = 5000;
// How long a failed rank waits for the others to report before it exits.
constexpr int kLeaveS = 3;

// Refusals every rank meets alike (options against the job's size): rank 0
// says why, every rank ends with the same status.
std::string job_usage_problem(const Options &o, int size) {
    if (size < 2)
        return "cmtime under a launcher needs at least 2 ranks (a server and a client), the "
               "launcher started " +
               std::to_string(size);
    if (o.peers_given && o.peers != size)
        return "-P " + std::to_string(o.peers) + " does not match the " + std::to_string(size) +
               " ranks the launcher started: leave -P out under a launcher, or give -P " +
               std::to_string(size);
    if (o.servers < 1 || o.servers > size - 1)
        return "--servers must be in [1, " + std::to_string(size - 1) + "] (one rank at least " +
               "must connect) for the " + std::to_string(size) +
               " ranks the launcher started, got " + std::to_string(o.servers);
    return "";
}

// This rank's address: -b / -B as given, or the node's default. Returns
// what is wrong instead of throwing: the other ranks must hear it.
std::string local_bind(const Options &o, BindAddress &bind) {
    try {
        if (!o.bind.empty() || !o.bind_interface.empty()) {
            bind = bind_address(o, false);
            return "";
        }
        const NodeAddress node = o.sockets ? default_route_address() : rdma_device_address();
        if (node.address.empty())
            return "no address to bind: " + node.why + "; give one with -b or -B interface";
        Options with = o;
        with.bind = node.address;
        bind = bind_address(with, false);
        return "";
    } catch (const std::exception &e) {
        return e.what();
    }
}

std::string terms(const Options &o, int size) {
    return "version=1 launcher=pmix -P=" + std::to_string(size) + " -c=" + std::to_string(o.conns) +
           " -S=" + (o.sockets ? "on" : "off") + " --servers=" + std::to_string(o.servers);
}

void say(const std::string &who, const std::string &what) {
    std::fflush(stdout);
    std::fprintf(stderr, "cmdbench cmtime%s: %s\n", who.c_str(), what.c_str());
}

} // namespace

int refuse_in_job(cmdbench::Job &job, const std::string &message, bool usage) {
    if (job.rank() == 0) {
        if (!message.empty()) say("", message);
        if (usage) std::printf("%s", usage_text().c_str());
        std::fflush(stdout);
    }
    try {
        job.barrier(kRefusalBarrierS);
    } catch (const std::exception &) {
        // A rank that did not come: the launcher ends the job anyway.
    }
    return 1;
}

void Instance::test_stop_point() const {
    if (in_job) fault_before_steps(mesh.index());
}

namespace {

// What keeps this rank from taking part, "" if nothing: it joins the mesh
// either way, so that every rank hears it.
std::string rank_failure(const Options &o, BindAddress &bind) {
    std::string failure = local_bind(o, bind);
    if (failure.empty() && !o.sockets) {
        const std::string problem = cmtime::rdma_device_problem();
        if (!problem.empty()) failure = "No RDMA devices were detected (" + problem + ")";
    }
    return failure;
}

// The job's mesh, or nullptr when it could not be formed (said, and every
// rank given the time to say it too).
std::unique_ptr<cmdbench::Mesh> join_mesh(cmdbench::Job &job, const cmdbench::MeshOptions &mo,
                                          const std::string &failure, const std::string &me) {
    try {
        return cmdbench::Mesh::join_job(job, mo, failure);
    } catch (const std::exception &e) {
        say(me, e.what());
        // Every rank that can hears the same: let each say it before any
        // exit makes the launcher end the job.
        try {
            job.barrier(kLeaveS);
        } catch (const std::exception &) {
        }
        return nullptr;
    }
}

// The steps of the run on a formed mesh: false when it failed (said).
bool run_steps(Instance &in, cmdbench::Mesh &mesh, const BindAddress &bind, const std::string &me) {
    try {
        if (in.o.sockets)
            run_sockets(in, bind);
        else
            run_rdma(in, bind);
        return true;
    } catch (const cmdbench::MeshError &e) {
        say(me, e.what()); // the mesh has told everyone
    } catch (const std::exception &e) {
        // Ours may be a symptom of another rank's loss (a server that left
        // refuses our connects): report the controller's verdict, which
        // names the first failure of the job.
        say(me, mesh.failure_verdict(e.what(), kLeaveS * 1000));
    }
    mesh.farewell(kLeaveS * 1000);
    return false;
}

} // namespace

int run_cmtime_launched(const Options &o, cmdbench::Job &job) {
    const int rank = job.rank(), size = job.size();
    // Only the controller knows who is late: its waits for a rank end at
    // --timeout, everybody else's a little later, so that a rank that stops
    // answering is named to all (instead of each rank timing out alone).
    const int grace_ms = rank == 0 ? 0 : kVerdictGraceMs;
    const uint64_t deadline =
        cmtime::now_ns() + (uint64_t(o.wait_s) * 1000 + kVerdictGraceMs) * 1000000ull;
    const bool speaker = rank == 0;
    if (const std::string problem = job_usage_problem(o, size); !problem.empty())
        return refuse_in_job(job, problem, false);
    if (speaker)
        for (const std::string &note : o.ignored)
            say("", "note: " + note);
    const std::string me = " (rank " + std::to_string(rank) + " on " + job.node() + ")";

    BindAddress bind;
    const std::string failure = rank_failure(o, bind);
    cmdbench::MeshOptions mo;
    mo.host = bind.text;
    mo.terms = terms(o, size);
    mo.timeout_ms = o.wait_s * 1000 + grace_ms;
    mo.connect_window_ms = std::min(30000, o.wait_s * 1000);
    std::unique_ptr<cmdbench::Mesh> mesh = join_mesh(job, mo, failure, me);
    if (!mesh) return 1;

    JobSummary summary{job.describe(), o.servers, o.conns, mesh->nodes(), mesh->addresses()};
    Console quiet(true), report(o.json || !speaker);
    report.text(format_job_summary(summary));
    Instance in{o, *mesh, quiet, report, deadline, rank < o.servers, true, {}};
    if (!run_steps(in, *mesh, bind, me)) return 1;
    if (o.json && speaker) std::fputs(format_json(in.tests, size, &summary).c_str(), stdout);
    return 0;
}

} // namespace cmdbench::cmtime_frontend
