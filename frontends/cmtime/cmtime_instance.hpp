// One cmdbench-cmtime instance on a wired mesh: its role, where it prints,
// and the tests it runs. Shared by the classic start (election, -L picks the
// role; cmtime_run.cpp) and the start under a launcher (roles by rank;
// cmtime_launcher.cpp).
#pragma once
#include "cmdbench/cmtime/sock_engine.hpp"
#include "cmtime_bind.hpp"
#include "cmtime_options.hpp"
#include "cmtime_report.hpp"
#include "mesh.hpp"

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace cmdbench::cmtime_frontend {

// Lines and tables on stdout, or nothing (quiet).
class Console {
  public:
    explicit Console(bool quiet) : quiet_(quiet) {}
    void line(const std::string &text) {
        if (quiet_) return;
        std::lock_guard<std::mutex> lock(mu_);
        std::printf("%s\n", text.c_str());
        std::fflush(stdout);
    }
    void text(const std::string &text) {
        if (quiet_) return;
        std::lock_guard<std::mutex> lock(mu_);
        std::fputs(text.c_str(), stdout);
        std::fflush(stdout);
    }

  private:
    bool quiet_;
    std::mutex mu_;
};

struct Instance {
    const Options &o;
    cmdbench::Mesh &mesh;
    Console &console; // this instance's progress lines and own tables
    Console &report;  // the mesh's aggregated tables (the controller's)
    uint64_t deadline_ns;
    bool server;         // -L, or the rank's role under a launcher
    bool in_job = false; // started by a launcher
    std::vector<MeshTest> tests;

    // Throws when --timeout has passed or (in a job) a peer is gone.
    void check_stop(const char *what);
    // Own table, then every peer's figures to the controller, which prints
    // the mesh's aggregated tables.
    void publish(const std::string &name, const cmtime::StepReport &mine);
    // Where a test may stop this rank (see cmtime_launcher.hpp).
    void test_stop_point() const;
};

// The socket engine's hooks into this instance: stop checks, time left, the
// barrier once every connection is up.
cmtime::SockHooks sock_hooks(Instance &in);

void run_rdma(Instance &in, const BindAddress &bind);
// -S: one server and one client (cmtime's baseline) or, in a job, every
// client to every server (cmtime_socket_mesh.cpp).
void run_sockets(Instance &in, const BindAddress &bind);
void run_socket_mesh(Instance &in, const BindAddress &bind);

} // namespace cmdbench::cmtime_frontend
