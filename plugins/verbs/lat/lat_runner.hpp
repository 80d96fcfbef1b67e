// verbs-lat's run, written once for RC and UD QPs: a Kind says what differs,
// chosen once by qp_type (lat_runner.cpp):
//   Kind::QpSet   the QPs of the run (RcQpSet, UdQpSet)
//   Kind::Peer      one QP's side of the ping-pong, made as Peer(qp, p, run),
//                   with post_receives(), prepare(size) and the time_round_trips
//                   calls (lat_loop.hpp)
//   Kind::sizes(p, qp_set)  the sizes the run measures
#ifndef CMDBENCH_VERBS_LAT_RUNNER_HPP
#define CMDBENCH_VERBS_LAT_RUNNER_HPP

#include "atomics.hpp"
#include "faults.hpp"
#include "lat/lat_loop.hpp"
#include "qp_notes.hpp"
#include "run/run_settings.hpp"
#include "run/workers.hpp"

#include <cstring>
#include <memory>

namespace cmdbench::verbs {

// The QPs every latency run makes (RC and UD alike; UD takes its QpSpec part).
ConnSpec lat_spec(const Params &p);

// The client times the round trips of each size on every QP (QPs one after
// another on their thread, threads at once) and reports a row per size; the
// server answers, or for read and the atomics stays passive.
template <class Kind> void run_lat_over(Run &run, const Params &p) {
    using Peer = typename Kind::Peer;
    const ConnSpec spec = lat_spec(p);
    typename Kind::QpSet qp_set(run, p.link(), spec);
    const std::vector<int64_t> sizes = Kind::sizes(p, qp_set);
    note_qps(run, p, qp_set, "verbs-lat");
    record_qp_settings(run, qp_set.conns(), spec.send_depth,
                       p.op == Op::Send ? spec.recv_depth : -1);
    if (run.is_client()) run.setting("clock", cmdbench::support::TickClock().source());

    std::vector<std::unique_ptr<Peer>> peers;
    for (const auto &c : qp_set.conns())
        peers.push_back(std::make_unique<Peer>(*c, p, run));
    if (p.op == Op::Send)
        for (auto &peer : peers)
            peer->post_receives();
    run.barrier("receives posted");

    const bool client = run.is_client();
    const bool passive = !client && is_one_sided(p.op);
    if (!client && is_atomic(p.op) && !qp_set.conns().empty())
        if (const auto v = faults::corrupt_target(run))
            std::memcpy(qp_set.conns()[0]->send_buf(), &*v, sizeof *v);
    size_t done = 0;
    for (int64_t size : sizes) {
        const size_t len = size_t(size);
        for (auto &peer : peers)
            peer->prepare(len);
        std::vector<ThreadTimes> times = thread_times(run, p.threads);
        run.barrier("lat " + std::to_string(size));
        run.check_stop("verbs-lat");
        if (!client && !passive) faults::start_late(run);
        if (!passive) {
            run_workers(run, p.threads, [&](int thread) {
                for (auto *c : qps_of_thread(qp_set.conns(), thread, p.threads))
                    time_round_trips(run, p, *peers[c->index()], len, times[size_t(thread)]);
            });
        }
        run.barrier("lat " + std::to_string(size) + " done");
        // perftest halves send/write, not read or atomics (UD: send only;
        // its row counts payload bytes, the GRH not counted)
        if (client) report_lat(run, p, size, times, p.op == Op::Send || p.op == Op::Write);
        run.host().progress(run.ctx(), ++done, sizes.size());
    }
    qp_set.finish(run);
}

// The two kinds (verbs_lat.cpp, ud_lat.cpp).
void run_rc_lat(Run &run, const Params &p);
void run_ud_lat(Run &run, const Params &p);

} // namespace cmdbench::verbs

#endif
