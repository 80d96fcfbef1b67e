// Test "verbs-bw": windowed bandwidth over RC QPs (perftest's ib_send_bw,
// ib_write_bw, ib_read_bw, measured at the sender as with -R). The client
// keeps up to tx_depth work requests outstanding per QP and asks for a
// completion every cq_mod of them (CQ moderation); for send the server keeps
// rx_depth receives posted and counts arrivals until the client tells it how
// many were sent; write and read are one-sided (the server stays passive).
#include "cq_wait.hpp"
#include "session.hpp"
#include "size_label.hpp"
#include "verbs_tests.hpp"
#include "workers.hpp"

#include <algorithm>
#include <atomic>
#include <limits>

namespace verbs {
namespace {

constexpr int kBatch = 32;
constexpr uint64_t kUnknown = std::numeric_limits<uint64_t>::max();

struct QpFigures {
    uint64_t msgs = 0; // timed messages
    uint64_t start_ns = 0, end_ns = 0;
};

// One QP at the sender, for one phase (warm-up or timed).
struct SendState {
    Conn *conn;
    uint64_t posted = 0, completed = 0, target = 0;
    uint64_t end_ns = 0;
};

// Posts and reaps on every QP of the thread until each reached its target;
// with a deadline, the targets close (rounded up to a signalled request)
// once it passed.
void pump(Run &run, const Params &p, size_t size, std::vector<SendState> &qps, uint64_t count,
          uint64_t until_ns) {
    const cmdbench_host &h = run.host();
    const Stopper &stop = run.stopper();
    const ibv_wr_opcode opcode = p.op == Op::Send    ? IBV_WR_SEND
                                 : p.op == Op::Write ? IBV_WR_RDMA_WRITE
                                                     : IBV_WR_RDMA_READ;
    const uint64_t cq_mod = uint64_t(p.cq_mod), depth = uint64_t(p.tx_depth);
    std::vector<Conn *> conns;
    for (SendState &s : qps) {
        s.posted = s.completed = 0;
        s.target = until_ns ? kUnknown : count;
        conns.push_back(s.conn);
    }
    bool closing = until_ns == 0;
    ibv_wc wc[kBatch];
    for (unsigned loops = 0;; ++loops) {
        if (!closing && h.now_ns() >= until_ns) {
            closing = true;
            // A window drained to a signalled request at this instant is
            // already complete: no completion will come to end it.
            for (SendState &s : qps) {
                s.target = (s.posted + cq_mod - 1) / cq_mod * cq_mod;
                if (s.completed == s.target) s.end_ns = h.now_ns();
            }
        }
        bool progress = false, all_done = true;
        for (SendState &s : qps) {
            while (s.posted < s.target && s.posted - s.completed < depth) {
                const uint64_t k = s.posted + 1;
                s.conn->post(opcode, uint32_t(size), k % cq_mod == 0 || k == s.target, k);
                s.posted = k;
                progress = true;
            }
            if (s.completed < s.posted) {
                const int n = poll_cq(*s.conn, wc, kBatch, "verbs-bw sender");
                for (int i = 0; i < n; ++i)
                    s.completed = std::max<uint64_t>(s.completed, wc[i].wr_id);
                if (n > 0 && s.completed == s.target) s.end_ns = h.now_ns();
                progress = progress || n > 0;
            }
            all_done = all_done && s.completed == s.target;
        }
        if (all_done) return;
        if ((loops & 0xfff) == 0xfff) stop.check("verbs-bw sender");
        if (!progress && p.mode == WaitMode::Event) wait_for_event(conns, stop, "verbs-bw sender");
    }
}

// The server's receives for op = send: repost each one as it completes, until
// every QP got what the client says it sent.
void receive_all(Run &run, const Params &p, const std::vector<Conn *> &conns,
                 const std::vector<std::atomic<uint64_t>> &expected) {
    const Stopper &stop = run.stopper();
    std::vector<uint64_t> got(conns.size(), 0);
    ibv_wc wc[kBatch];
    for (unsigned loops = 0;; ++loops) {
        bool progress = false, all_done = true;
        for (size_t i = 0; i < conns.size(); ++i) {
            const int n = poll_cq(*conns[i], wc, kBatch, "verbs-bw receiver");
            for (int j = 0; j < n; ++j) {
                if (!(wc[j].opcode & IBV_WC_RECV)) continue;
                ++got[i];
                conns[i]->post_recv(0);
            }
            progress = progress || n > 0;
            all_done = all_done && got[i] >= expected[conns[i]->index()].load();
        }
        if (all_done) return;
        if ((loops & 0xfff) == 0xfff) stop.check("verbs-bw receiver");
        if (!progress && p.mode == WaitMode::Event)
            wait_for_event(conns, stop, "verbs-bw receiver");
    }
}

std::vector<uint8_t> encode_counts(const std::vector<uint64_t> &counts) {
    std::vector<uint8_t> out;
    for (uint64_t v : counts)
        for (int i = 7; i >= 0; --i)
            out.push_back(uint8_t(v >> (8 * i)));
    return out;
}

std::vector<uint64_t> decode_counts(const std::vector<uint8_t> &bytes, size_t qps) {
    if (bytes.size() != 8 * qps) fail("verbs-bw: the client's message counts are malformed");
    std::vector<uint64_t> out(qps, 0);
    for (size_t q = 0; q < qps; ++q)
        for (int i = 0; i < 8; ++i)
            out[q] = out[q] << 8 | bytes[8 * q + size_t(i)];
    return out;
}

void report(Run &run, const Params &p, int64_t size, const std::vector<QpFigures> &figures) {
    const cmdbench_host &h = run.host();
    uint64_t msgs = 0, start = kUnknown, end = 0;
    double min_gbps = 0, max_gbps = 0;
    for (size_t i = 0; i < figures.size(); ++i) {
        const QpFigures &f = figures[i];
        msgs += f.msgs;
        start = std::min(start, f.start_ns);
        end = std::max(end, f.end_ns);
        const double ns = double(std::max<uint64_t>(f.end_ns - f.start_ns, 1));
        const double gbps = double(f.msgs) * double(size) * 8.0 / ns;
        min_gbps = i == 0 ? gbps : std::min(min_gbps, gbps);
        max_gbps = i == 0 ? gbps : std::max(max_gbps, gbps);
    }
    if (end < start) fail("verbs-bw: a QP has no end time (internal error)");
    const double ns = double(std::max<uint64_t>(end - start, 1));
    const double bytes = double(msgs) * double(size);
    cmdbench_row *row = h.row_begin(run.ctx(), size_label(size).c_str());
    if (!row) fail("row_begin failed");
    static const cmdbench_metric_meaning size_m = CMDBENCH_MEANING_MESSAGE_SIZE,
                                         count_m = CMDBENCH_MEANING_COUNT,
                                         moved_m = CMDBENCH_MEANING_MOVED,
                                         time_m = CMDBENCH_MEANING_ELAPSED_DETAIL,
                                         bw_m = CMDBENCH_MEANING_BANDWIDTH,
                                         rate_m = CMDBENCH_MEANING_RATE,
                                         qp_bw_m = CMDBENCH_MEANING(CMDBENCH_KIND_BANDWIDTH,
                                                                    CMDBENCH_BETTER_HIGHER,
                                                                    CMDBENCH_METRIC_DETAIL);
    h.row_metric_ex(row, "bytes", double(size), CMDBENCH_UNIT_BYTES, &size_m);
    h.row_metric_ex(row, "xfers", double(msgs), CMDBENCH_UNIT_COUNT, &count_m);
    h.row_metric_ex(row, "total", bytes, CMDBENCH_UNIT_BYTES, &moved_m);
    h.row_metric_ex(row, "time", ns / 1e9, CMDBENCH_UNIT_SECONDS, &time_m);
    h.row_metric_ex(row, "Gb/sec", bytes * 8.0 / ns, CMDBENCH_UNIT_GBPS, &bw_m);
    h.row_metric_ex(row, "msgs/sec", double(msgs) / (ns / 1e9), CMDBENCH_UNIT_PER_SEC, &rate_m);
    h.row_metric_ex(row, "qps", double(p.qps), CMDBENCH_UNIT_COUNT, &count_m);
    if (p.qps > 1) {
        h.row_metric_ex(row, "min QP Gb/sec", min_gbps, CMDBENCH_UNIT_GBPS, &qp_bw_m);
        h.row_metric_ex(row, "max QP Gb/sec", max_gbps, CMDBENCH_UNIT_GBPS, &qp_bw_m);
    }
    h.row_end(row);
}

void run_bw(Run &run) {
    const Params p = read_params(run, true);
    ConnSpec spec;
    spec.region = region_for(p);
    spec.send_depth = p.tx_depth;
    spec.recv_depth = p.op == Op::Send ? p.rx_depth : 1;
    spec.inline_size = p.inline_size;
    spec.inline_explicit = p.inline_explicit;
    spec.rdma_read = p.op == Op::Read;
    Session session(run, p, spec);
    const bool client = run.is_client();
    if (!client && p.op == Op::Send)
        for (const auto &c : session.conns())
            for (int i = 0; i < p.rx_depth; ++i)
                c->post_recv(0);
    run.barrier("receives posted");

    const size_t qps = size_t(p.qps);
    size_t done = 0;
    for (int64_t size : p.sizes) {
        std::vector<QpFigures> figures(qps);
        std::vector<uint64_t> sent(qps, 0); // warm-up and timed, per QP
        std::vector<std::atomic<uint64_t>> expected(qps);
        for (auto &e : expected)
            e = kUnknown;
        run.barrier("bw " + std::to_string(size));
        run.check_stop("verbs-bw");
        if (client) {
            run_workers(run, p.threads, [&](int thread) {
                std::vector<SendState> mine;
                for (Conn *c : conns_of_thread(session.conns(), thread, p.threads))
                    mine.push_back({c});
                if (p.warmup > 0) {
                    pump(run, p, size_t(size), mine, uint64_t(p.warmup), 0);
                    for (SendState &s : mine)
                        sent[s.conn->index()] += s.completed;
                }
                const uint64_t start = run.host().now_ns();
                const uint64_t until =
                    p.duration > 0 ? start + uint64_t(p.duration * 1e9) : uint64_t(0);
                pump(run, p, size_t(size), mine, uint64_t(p.iterations), until);
                for (SendState &s : mine) {
                    const size_t i = s.conn->index();
                    sent[i] += s.completed;
                    figures[i] = {s.completed, start, s.end_ns};
                }
            });
            run.exchange(encode_counts(sent), "verbs-bw message counts");
        } else if (p.op == Op::Send) {
            run_workers(
                run, p.threads,
                [&](int thread) {
                    receive_all(run, p, conns_of_thread(session.conns(), thread, p.threads),
                                expected);
                },
                [&] {
                    const std::vector<uint64_t> counts =
                        decode_counts(run.exchange({}, "verbs-bw message counts"), qps);
                    for (size_t i = 0; i < qps; ++i)
                        expected[i] = counts[i];
                });
        } else {
            run.exchange({}, "verbs-bw message counts");
        }
        run.barrier("bw " + std::to_string(size) + " done");
        if (client) report(run, p, size, figures);
        run.host().progress(run.ctx(), ++done, p.sizes.size());
    }
    session.finish(run);
}

int run(const cmdbench_run_env *env) {
    return run_guarded(env, run_bw);
}

} // namespace

const cmdbench_test &bw_test() {
    static cmdbench_test test = [] {
        cmdbench_test t{};
        t.struct_size = sizeof(cmdbench_test);
        t.name = "verbs-bw";
        t.description = "verbs bandwidth over RC QPs through rdma_cm, windowed with CQ "
                        "moderation, measured at the sender (perftest's ib_*_bw -R)";
        t.flags = 0;
        t.params = bw_params(&t.param_count);
        t.run = run;
        return t;
    }();
    return test;
}

} // namespace verbs
