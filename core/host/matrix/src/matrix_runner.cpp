// The matrix runner. Collectives (Job::allgather) happen only between runs:
// once to exchange the servers, once after every round (which doubles as
// the agreement to go on, and brings the round's results to rank 0, which
// rewrites -o so that a job that dies later keeps them), and twice at the
// end (the pairs never run, the common exit status). Each has a bound, so a
// dead or stuck rank ends the job with an error that names it instead of a
// hang.
#include "cmdbench/host/matrix/matrix_runner.hpp"

#include "cmdbench/control/sha256.hpp"
#include "cmdbench/host/execute/execute_job.hpp"
#include "cmdbench/host/machine/interface_address.hpp"
#include "cmdbench/host/matrix/matrix_rails.hpp"
#include "cmdbench/host/plan/job_plan.hpp"
#include "cmdbench/host/run/exit_status.hpp"
#include "cmdbench/host/run/run_client.hpp"
#include "cmdbench/host/run/server_process.hpp"
#include "cmdbench/host/run/test_executor.hpp"
#include "cmdbench/report/matrix/report_matrix.hpp"
#include "cmdbench/report/output_file.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/result_sink.hpp"
#include "cmdbench/report/results_reader.hpp"
#include "matrix_address.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>
#include <unistd.h>

namespace cmdbench {
namespace {

using Json = nlohmann::json;

constexpr double kWireupTimeout = 60;  // every rank's server up and published
constexpr double kGatherTimeout = 300; // the results of every rank to rank 0
// A round waits for its slowest pair: the run's timeout, the test's grace,
// and time to connect, hand over the results and close.
constexpr double kRoundMargin = 30;
// After a failed round, how long to wait for each rank to say it is there:
// the live ones fail the same collective at about the same time (a killed
// rank makes the launcher interrupt the rest within a second or so), and
// the launcher may end the job a second after that.
constexpr double kRollCallTimeout = 2;
// Rewriting -o after a round takes at most about a tenth of the run's time
// (a 64-rank matrix has 4032 entries and 126 rounds a run), and happens at
// most once a second.
constexpr double kWriteShare = 10;
constexpr double kMinWriteInterval = 1;
// Sessions a rank's server accepts at once: one per round, plus slack for
// the previous round's session still closing.
constexpr int kServerSessions = 8;

std::string hex(const Sha256Digest &d) {
    static const char *digits = "0123456789abcdef";
    std::string out;
    for (uint8_t b : d) {
        out += digits[b >> 4];
        out += digits[b & 15];
    }
    return out;
}

// What each rank tells the others at the start.
struct Hello {
    std::string digest;     // of the effective scenario text
    std::string node;       // Job::node()
    std::string address;    // "host:port" of its server; empty when it could not start one
    std::string token;      // that server's token (the job is private to its launcher)
    std::string error;      // why it has no server
    bool bad_input = false; // the error is the scenario's ([matrix] interface/device): exit 2
    std::vector<RailAddress> rails; // rails = "all": its RDMA devices, where its server listens
};

std::string hello_text(const Hello &h) {
    Json rails = Json::array();
    for (const RailAddress &r : h.rails)
        rails.push_back({{"label", r.label}, {"address", r.address}});
    return Json{{"digest", h.digest}, {"node", h.node},   {"address", h.address},
                {"token", h.token},   {"error", h.error}, {"bad_input", h.bad_input},
                {"rails", rails}}
        .dump();
}

Hello parse_hello(const std::string &text) {
    Hello h;
    try {
        const Json j = Json::parse(text);
        h.digest = j.at("digest").get<std::string>();
        h.node = j.at("node").get<std::string>();
        h.address = j.at("address").get<std::string>();
        h.token = j.at("token").get<std::string>();
        h.error = j.at("error").get<std::string>();
        h.bad_input = j.value("bad_input", false);
        for (const Json &r : j.value("rails", Json::array()))
            h.rails.push_back(
                {r.at("label").get<std::string>(), r.at("address").get<std::string>()});
    } catch (const std::exception &e) {
        h.error = std::string("unreadable hello: ") + e.what();
    }
    return h;
}

// This rank's runs as a results document, compact: it travels through the
// launcher to rank 0.
std::string results_text(const std::vector<RunResult> &runs) {
    Report mine;
    mine.runs = runs;
    std::ostringstream out;
    write_json(out, mine);
    return Json::parse(out.str()).dump();
}

class MatrixRun {
  public:
    MatrixRun(Job &job, const Scenario &scenario, const Registry &registry,
              const RunOptions &options, const std::atomic<bool> &interrupted)
        : job_(job), scenario_(scenario), registry_(registry), options_(options),
          interrupted_(interrupted),
          sink_(options.format, options.output, options.report), client_{registry, interrupted,
                                                                         progress_, kLoopbackNode,
                                                                         false} {}

    int run(RunContext context);

  private:
    Hello my_hello(const std::string &digest);
    int wire_up(const std::string &digest);
    void run_rounds();
    void not_run(size_t from_step, size_t from_round, const std::string &why);
    ServerLink link_to(int server_rank, int rail) const;
    RunPair pair_of(const RunJob &job) const;
    RunResult run_pair(const RunJob &job);
    void keep(const std::string &key, double timeout_s);
    void write_progress(size_t step, size_t round);
    bool write_due() const;
    Report assemble(std::vector<RunResult> runs, const std::string &note) const;
    void write_partial(const std::string &note, const std::string &why_not_run);
    std::string where(size_t step, size_t round) const;
    std::string lost(const std::string &why);
    int finish();
    int report(Report report);
    void say(const std::string &line) const; // rank 0, unless --quiet

    Job &job_;
    const Scenario &scenario_;
    const Registry &registry_;
    const RunOptions &options_;
    const std::atomic<bool> &interrupted_;
    NoProgressDisplay progress_;
    ResultSink sink_; // rank 0's outputs
    ClientState client_;
    std::unique_ptr<ServerProcess> server_;
    std::vector<Hello> peers_;
    RunPlan plan_;                   // each run (each rail's apart), its repeats, the rounds
    std::vector<RunResult> mine_;    // the pairs this rank was the client of, not run
    std::vector<RunResult> pending_; // run, not yet handed to rank 0
    bool flush_asked_ = false;       // rank 0 asked for the results at the next round's end
    std::string stopped_;            // why the rounds ended early ("" = they did not)
    RunContext context_;
    // Rank 0: every finished pair, as the rounds bring them in.
    std::vector<RunResult> gathered_;
    std::string unreadable_; // a rank's results that could not be read
    // The collective under way, and where the rounds are (for messages).
    std::string key_;
    size_t step_ = 0, round_ = 0;
    std::chrono::steady_clock::time_point last_write_{};
    double last_write_seconds_ = 0;
};

void MatrixRun::say(const std::string &line) const {
    if (job_.rank() == 0 && !options_.quiet) std::fprintf(stderr, "cmdbench: %s\n", line.c_str());
}

// This rank's hello: where its server listens (it starts it here), or why
// it has none.
Hello MatrixRun::my_hello(const std::string &digest) {
    Hello me;
    me.digest = digest;
    me.node = job_.node();
    std::string host;
    try {
        host = matrix_listen_address(scenario_.matrix, me.node);
    } catch (const MatrixAddressError &e) {
        me.error = std::string("[matrix] ") +
                   (scenario_.matrix.interface.empty() ? "device" : "interface") + ": " + e.what();
        me.bad_input = true;
    }
    me.rails = rails_of(scenario_);
    if (host.empty()) return me;
    try {
        std::vector<std::string> files;
        for (const auto &p : registry_.plugins())
            files.push_back(p.file);
        // Every rail's address too, on the same port; a client runs all
        // rails at once, a session each.
        std::string listen = host;
        for (const RailAddress &r : me.rails)
            if (r.address != host) listen += "," + r.address;
        const int sessions = kServerSessions + int(me.rails.size());
        server_ = std::make_unique<ServerProcess>(self_executable(), files, listen,
                                                  ServerServing{false, sessions});
        me.address = published_address(host, server_->port());
        me.token = server_->token();
    } catch (const std::exception &e) {
        me.error = "cannot start a server on " + host + ": " + e.what();
    }
    return me;
}

// What keeps the job from running, in the hellos of every rank (each sees
// the same, so each reaches the same verdict); `usage`: the scenario's or
// the command's fault (exit 2).
std::vector<std::string> hello_problems(const std::vector<Hello> &peers, bool &usage) {
    std::vector<std::string> problems;
    std::vector<std::string> nodes;
    for (const Hello &h : peers)
        if (std::find(nodes.begin(), nodes.end(), h.node) == nodes.end()) nodes.push_back(h.node);
    for (size_t r = 0; r < peers.size(); ++r) {
        const Hello &h = peers[r];
        const std::string who = "rank " + std::to_string(r) + " (" + h.node + ")";
        if (h.digest != peers[0].digest) {
            usage = true;
            problems.push_back(who +
                               " runs a different scenario than rank 0 (effective scenario "
                               "digest " +
                               h.digest.substr(0, 12) + " vs " + peers[0].digest.substr(0, 12) +
                               "): give every rank the same file and --set options");
        }
        if (!h.error.empty()) problems.push_back(who + ": " + h.error);
        usage = usage || h.bad_input;
        const std::string addr_host = h.address.substr(0, h.address.rfind(':'));
        if (nodes.size() > 1 && !h.address.empty() && is_loopback_address(addr_host)) {
            usage = true;
            problems.push_back(who + " would serve on the loopback address " + h.address +
                               ", but the job spans " + std::to_string(nodes.size()) +
                               " nodes: set [matrix] address, or make the node name resolve to "
                               "an address the other nodes reach");
        }
        if (h.rails.size() != peers[0].rails.size())
            problems.push_back(who + " has " + rails_text(h.rails) + ", rank 0 (" + peers[0].node +
                               ") " + rails_text(peers[0].rails) +
                               ": rails = \"all\" needs as many active RDMA devices on every "
                               "node");
    }
    return problems;
}

int MatrixRun::wire_up(const std::string &digest) {
    const auto texts =
        job_.allgather("cmdbench.matrix.hello", hello_text(my_hello(digest)), kWireupTimeout);
    for (const auto &t : texts)
        peers_.push_back(parse_hello(t));
    bool usage = false;
    const std::vector<std::string> problems = hello_problems(peers_, usage);
    if (problems.empty()) return kExitOk;
    // Rank 0 says everything; the others only what is about themselves.
    const int rank = job_.rank();
    for (const std::string &p : problems)
        if (rank == 0 || p.rfind("rank " + std::to_string(rank) + " ", 0) == 0)
            std::fprintf(stderr, "cmdbench: matrix: %s\n", p.c_str());
    return usage ? kExitUsage : kExitRunFailed;
}

// A pair's server link: the server rank's server, on one rail or all of them.
ServerLink MatrixRun::link_to(int server_rank, int rail) const {
    const Hello &server = peers_[size_t(server_rank)];
    ServerLink link;
    link.server = rail >= 0
                      ? rail_server_address(server.address, server.rails[size_t(rail)].address)
                      : server.address;
    link.token = server.token;
    link.label = "the server of rank " + std::to_string(server_rank) + " (" + server.node + ", " +
                 link.server + ")";
    if (rail == kAllRails)
        for (const RailAddress &r : server.rails)
            link.rail_servers.push_back(rail_server_address(server.address, r.address));
    link.one_job = true;
    return link;
}

RunPair MatrixRun::pair_of(const RunJob &job) const {
    return RunPair{job.pair->client, job.pair->server, peers_[size_t(job.pair->client)].node,
                   peers_[size_t(job.pair->server)].node, unsigned(job.round + 1)};
}

RunResult MatrixRun::run_pair(const RunJob &job) {
    ServerLink link = link_to(job.pair->server, plan_.part_of(job.step).rail);
    RunResult r = execute_job(client_, plan_, job, link);
    r.pair = pair_of(job);
    return r;
}

// The pairs this rank would still have run as a client, reported as not run.
void MatrixRun::not_run(size_t from_step, size_t from_round, const std::string &why) {
    plan_.for_each_job(from_step, from_round, [&](const RunJob &job) {
        if (job.pair->client != job_.rank()) return;
        RunResult res = cmdbench::not_run(plan_, job, why);
        res.pair = pair_of(job);
        mine_.push_back(std::move(res));
    });
}

void MatrixRun::run_rounds() {
    const int rank = job_.rank();
    for (size_t s = 0; s < plan_.steps.size(); ++s) {
        const RunSpec &spec = plan_.spec_of(s);
        say("matrix: run " + std::to_string(plan_.steps[s].part + 1) + "/" +
            std::to_string(plan_.parts.size()) + " '" + spec.name + "'" +
            (spec.repeat > 1 ? " repeat " + std::to_string(plan_.repeat_of(s)) + "/" +
                                   std::to_string(spec.repeat)
                             : "") +
            ": " + std::to_string(plan_.rounds.size()) + " rounds");
        const double round_timeout = spec.timeout_s + kGraceSeconds + kRoundMargin;
        for (size_t r = 0; r < plan_.rounds.size(); ++r) {
            step_ = s;
            round_ = r;
            for (const MatrixPair &p : plan_.rounds[r])
                if (p.client == rank) pending_.push_back(run_pair(RunJob{s, r, &p}));
            // The end of a round is where the ranks agree to go on: no
            // collective runs while a pair is timed. At the end of a run,
            // and when rank 0 asked for it in the previous round's word,
            // every rank hands its results since the last time to rank 0
            // (under a key only rank 0 reads), which rewrites -o. Not every
            // round: with 64 ranks, that doubled the job's time.
            const bool hand_over = flush_asked_ || r + 1 == plan_.rounds.size();
            std::string word = "go";
            if (client_.abandoned)
                word = "stop:not run: an earlier run could not be stopped";
            else if (interrupted_)
                word = "stop:not run: interrupted";
            else if (rank == 0 && write_due())
                word = "go flush";
            key_ = "cmdbench.matrix.round." + std::to_string(s) + "." + std::to_string(r);
            if (hand_over) {
                job_.put(key_ + ".runs", results_text(pending_));
                pending_.clear();
            }
            const auto words = job_.allgather(key_, word, round_timeout);
            for (const std::string &w : words)
                if (w.rfind("stop:", 0) == 0 && stopped_.empty()) stopped_ = w.substr(5);
            flush_asked_ = words[0] == "go flush";
            if (rank == 0 && hand_over) {
                keep(key_ + ".runs", round_timeout);
                if (stopped_.empty()) write_progress(s, r);
            }
            if (!stopped_.empty()) {
                not_run(s, r + 1, stopped_);
                return;
            }
        }
    }
}

// Rank 0: the results of one round, one document per rank under `key`.
void MatrixRun::keep(const std::string &key, double timeout_s) {
    for (int r = 0; r < job_.size(); ++r) {
        const std::string text = job_.get(r, key, timeout_s);
        try {
            Report theirs = parse_results(text, "the results of rank " + std::to_string(r));
            for (auto &run : theirs.runs)
                gathered_.push_back(std::move(run));
        } catch (const ResultsError &e) {
            if (unreadable_.empty()) unreadable_ = e.what();
        }
    }
}

// "round 3 of 6 of run 'latency'", for notes and errors.
std::string MatrixRun::where(size_t step, size_t round) const {
    const RunSpec &spec = plan_.spec_of(step);
    std::string w = "round " + std::to_string(round + 1) + " of " +
                    std::to_string(plan_.rounds.size()) + " of run '" + spec.name + "'";
    if (spec.repeat > 1) w += " repeat " + std::to_string(plan_.repeat_of(step));
    return w;
}

// The document rank 0 writes: the job's context and ranks, `runs` in
// scenario order, then repeat, then pair.
Report MatrixRun::assemble(std::vector<RunResult> runs, const std::string &note) const {
    Report all;
    all.context = context_;
    if (!note.empty()) all.context.notes.push_back(note);
    all.baseline = scenario_.baseline;
    MatrixInfo info;
    info.pattern = to_string(scenario_.matrix.pattern);
    info.one_pair_at_a_time = scenario_.matrix.one_pair_at_a_time;
    info.rounds = unsigned(plan_.rounds.size());
    info.launcher = job_.describe();
    for (size_t r = 0; r < peers_.size(); ++r)
        info.ranks.push_back({int(r), peers_[r].node, peers_[r].address});
    all.matrix = std::move(info);
    all.runs = std::move(runs);
    auto order = [&](const RunResult &r) {
        size_t i = 0;
        while (i < plan_.parts.size() && plan_.parts[i].spec.name != r.name)
            ++i;
        return std::make_tuple(i, r.repeat, r.pair ? r.pair->client : 0,
                               r.pair ? r.pair->server : 0);
    };
    std::stable_sort(all.runs.begin(), all.runs.end(),
                     [&](const RunResult &a, const RunResult &b) { return order(a) < order(b); });
    return all;
}

// Rank 0, before the end: -o with every pair finished so far, and every
// other pair of the schedule as not run (`why_not_run`), so that the file
// is whole however the job ends from here. Stdout, FIFOs and devices get
// the final document only.
void MatrixRun::write_partial(const std::string &note, const std::string &why_not_run) {
    const std::string &path = options_.output;
    if (path.empty() || output_is_stream(path)) return;
    std::set<std::tuple<std::string, unsigned, int, int>> done;
    for (const RunResult &r : gathered_)
        if (r.pair) done.insert({r.name, r.repeat, r.pair->client, r.pair->server});
    std::vector<RunResult> runs = gathered_;
    plan_.for_each_job(0, 0, [&](const RunJob &job) {
        const RunSpec &spec = plan_.spec_of(job.step);
        const unsigned repeat = plan_.repeat_of(job.step);
        if (done.count({spec.name, repeat, job.pair->client, job.pair->server})) return;
        RunResult res = cmdbench::not_run(plan_, job, why_not_run);
        res.pair = pair_of(job);
        runs.push_back(std::move(res));
    });
    const auto began = std::chrono::steady_clock::now();
    sink_.write_interim(assemble(runs, note));
    const auto ended = std::chrono::steady_clock::now();
    last_write_ = ended;
    last_write_seconds_ = std::chrono::duration<double>(ended - began).count();
}

// Rank 0: whether to ask for the results so far, to rewrite -o: once the
// last write is far enough back for its cost.
bool MatrixRun::write_due() const {
    if (options_.output.empty() || output_is_stream(options_.output)) return false;
    if (last_write_ == std::chrono::steady_clock::time_point{}) return true;
    const double since =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - last_write_).count();
    return since >= std::max(kMinWriteInterval, kWriteShare * last_write_seconds_);
}

// Rank 0, after a round that went well and brought results: the file so
// far (the final document follows the last round of all).
void MatrixRun::write_progress(size_t step, size_t round) {
    if (step + 1 == plan_.steps.size() && round + 1 == plan_.rounds.size()) return;
    write_partial("incomplete: written after " + where(step, round) +
                      "; the job had not finished (if this note stays, it never did)",
                  "not run: the job had not got to this pair when the file was written");
}

// A collective failed: name the ranks that did not get there, in the error
// and (rank 0) in the results file. The file is written first with what is
// known, then again with the names: the launcher may end the job any moment.
std::string MatrixRun::lost(const std::string &why) {
    const std::string at = where(step_, round_);
    const bool root = job_.rank() == 0;
    if (root)
        write_partial("the matrix broke off at the end of " + at + ": " + why,
                      "not run: the matrix broke off at the end of " + at);
    const std::vector<int> gone = job_.roll_call(key_ + ".here", kRollCallTimeout);
    if (gone.empty()) return why;
    std::string who;
    for (size_t i = 0; i < gone.size(); ++i)
        who += std::string(i ? ", " : "") + "rank " + std::to_string(gone[i]) + " (node " +
               peers_[size_t(gone[i])].node + ")";
    const std::string text = who + (gone.size() > 1 ? " are" : " is") +
                             " gone (killed, stopped or stuck): no answer after the end of " + at +
                             " failed; " + why;
    if (root)
        write_partial(text, "not run: the matrix broke off at the end of " + at + ": " + who +
                                (gone.size() > 1 ? " are" : " is") + " gone");
    return text;
}

int MatrixRun::finish() {
    // The rounds brought most finished pairs; what is left is those run
    // since the last hand-over (the rounds stopped early) and the pairs not
    // run.
    std::vector<RunResult> rest = std::move(pending_);
    rest.insert(rest.end(), mine_.begin(), mine_.end());
    const auto texts =
        job_.allgather("cmdbench.matrix.results", results_text(rest), kGatherTimeout);
    int status = kExitOk;
    if (job_.rank() == 0) {
        std::vector<RunResult> runs = std::move(gathered_);
        try {
            for (size_t r = 0; r < texts.size(); ++r) {
                Report theirs = parse_results(texts[r], "the results of rank " + std::to_string(r));
                for (auto &run : theirs.runs)
                    runs.push_back(std::move(run));
            }
        } catch (const ResultsError &e) {
            std::fprintf(stderr, "cmdbench: matrix: %s\n", e.what());
            status = kExitRunFailed;
        }
        if (!unreadable_.empty()) {
            std::fprintf(stderr, "cmdbench: matrix: %s\n", unreadable_.c_str());
            status = kExitRunFailed;
        }
        status = std::max(status, report(assemble(std::move(runs), "")));
    }
    // The same status on every rank: the worst any rank has.
    const auto statuses = job_.allgather("cmdbench.matrix.status", std::to_string(status), 60);
    for (const std::string &s : statuses)
        status = std::max(status, std::atoi(s.c_str()));
    return status;
}

// Rank 0: stdout, -o and --report; the exit status the results call for.
int MatrixRun::report(Report all) {
    sink_.finish(all);
    const bool interrupted = stopped_.find("interrupted") != std::string::npos;
    return exit_status(all, {interrupted, options_.allow_skip, sink_.write_failed(), "pair runs"});
}

int MatrixRun::run(RunContext context) {
    context_ = std::move(context);
    const Sha256Digest d = sha256(context_.scenario_text.data(), context_.scenario_text.size());
    const int wired = wire_up(hex(d));
    if (wired != kExitOk) return wired;
    std::vector<std::string> rail_labels; // rank 0's
    for (const RailAddress &r : peers_[0].rails)
        rail_labels.push_back(r.label);
    plan_ = plan_matrix_runs(scenario_, job_.size(), rail_labels);
    size_t pairs = 0;
    for (const auto &round : plan_.rounds)
        pairs += round.size();
    say("matrix: " + std::string(to_string(scenario_.matrix.pattern)) + ", " +
        std::to_string(job_.size()) + " ranks on " + job_.describe() + ": " +
        std::to_string(pairs) + " pairs in " + std::to_string(plan_.rounds.size()) +
        " rounds per run");
    try {
        run_rounds();
    } catch (const JobError &e) {
        throw JobError(lost(e.what()));
    }
    const int status = finish();
    if (client_.abandoned) {
        server_->stop(0);
        leave_abandoned(status);
    }
    server_.reset();
    return status;
}

} // namespace

int run_matrix(Job &job, const Scenario &scenario, const Registry &registry, RunContext context,
               const RunOptions &options, const std::atomic<bool> &interrupted) {
    MatrixRun run(job, scenario, registry, options, interrupted);
    try {
        return run.run(std::move(context));
    } catch (const JobError &e) {
        // A rank died or a collective timed out: the job cannot go on.
        std::fprintf(stderr, "cmdbench: matrix: rank %d: %s\n", job.rank(), e.what());
        // Interrupted (SIGTERM: the launcher is ending the job already, e.g.
        // after a rank died), PMIx_Abort would only block until the SIGKILL.
        if (!interrupted) job.abort(kExitRunFailed, e.what());
        return kExitRunFailed;
    }
}

} // namespace cmdbench
