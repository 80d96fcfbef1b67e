// The matrix runner. The launcher is asked once (Job::allgather: every
// rank's server, rank 0's coordinator); after that the ranks speak to rank 0
// alone (round_link.hpp): each pair's result as it ends, a word at the end of
// every round, and rank 0's answer, the same for all. Rank 0 keeps every
// finished pair on disk (pair_store.hpp; it rewrites -o as they come, and
// reads them back one at a time for every output), notices a dead or
// stopped rank within a bound, names it once, and the job goes on without
// it: the pairs it would have been in are reported not run, with the reason.
#include "cmdbench/host/matrix/matrix_runner.hpp"

#include "cmdbench/control/sha256.hpp"
#include "cmdbench/host/execute/execute_job.hpp"
#include "cmdbench/host/machine/interface_address.hpp"
#include "cmdbench/host/matrix/coordinator.hpp"
#include "cmdbench/host/matrix/matrix_rails.hpp"
#include "cmdbench/host/matrix/pair_store.hpp"
#include "cmdbench/host/matrix/rank_link.hpp"
#include "cmdbench/host/plan/job_plan.hpp"
#include "cmdbench/host/run/exit_status.hpp"
#include "cmdbench/host/run/run_client.hpp"
#include "cmdbench/host/run/server_process.hpp"
#include "cmdbench/host/run/test_executor.hpp"
#include "cmdbench/report/input_file.hpp"
#include "cmdbench/report/matrix/report_matrix.hpp"
#include "cmdbench/report/output_file.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/result_sink.hpp"
#include "cmdbench/report/results_reader.hpp"
#include "matrix_address.hpp"
#include "matrix_hello.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>
#include <unistd.h>

namespace cmdbench {
namespace {

using Json = nlohmann::json;

constexpr double kWireupTimeout = 60; // every rank's server up and published
// A round waits for its slowest pair: the run's timeout, the test's grace,
// and time to connect, hand over the results and close.
constexpr double kRoundMargin = 30;
// A rank waits this much longer than rank 0 for the round's word: rank 0
// sends it once the round's wait is over.
constexpr double kWordMargin = 30;
// The last word (the exit status) comes after rank 0 has written every
// output: a report of a large matrix takes a while.
constexpr double kEndTimeout = 600;
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

// A pair's run under load has a session for each background flow beside
// its own, all with the server rank's server.
unsigned most_background_flows(const Scenario &s) {
    unsigned most = 0;
    for (const RunSpec &r : s.runs)
        if (r.background) most = std::max(most, r.background->flows);
    return most;
}

// Runs as a results document, compact: a pair's result on its way to rank 0.
std::string results_text(const std::vector<RunResult> &runs) {
    Report mine;
    mine.runs = runs;
    std::ostringstream out;
    write_json(out, mine);
    return Json::parse(out.str()).dump();
}

// "rank 2 (node3)".
std::string rank_name(int rank, const std::vector<Hello> &peers) {
    return "rank " + std::to_string(rank) + " (" + peers[size_t(rank)].node + ")";
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

    // The coordinator's thread reports into the members below it: it stops
    // first.
    ~MatrixRun() { coordinator_.reset(); }
    MatrixRun(const MatrixRun &) = delete;
    MatrixRun &operator=(const MatrixRun &) = delete;

    int run(RunContext context);

  private:
    Hello my_hello(const std::string &digest);
    std::string load_resumed();
    nlohmann::json keep_resumed();
    int wire_up(const std::string &digest);
    void join_link();
    void run_rounds();
    void run_round(size_t step, size_t round);
    std::string my_word() const;
    ServerLink link_to(int server_rank, int rail) const;
    RunPair pair_of(const RunJob &job) const;
    RunResult run_pair(const RunJob &job);
    std::string store_dir() const;
    void order_jobs();
    void hand_over(const RunResult &r);
    void take(const std::string &doc, const std::string &from);
    void rank_gone(const GoneRank &g);
    const GoneRank *gone_from(const RunJob &job, const std::vector<GoneRank> &gone) const;
    RunStream whole(const std::string &why_not_run, const std::vector<GoneRank> &gone) const;
    bool write_due();
    Report assemble(const std::string &note, const std::string &why_not_run,
                    const std::vector<GoneRank> &gone) const;
    void write_partial(const std::string &note, const std::string &why_not_run);
    std::string where(size_t seq) const;
    int finish();
    void print_run(const std::string &name);
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
    std::unique_ptr<Coordinator> coordinator_; // rank 0
    std::unique_ptr<RankLink> link_;           // every other rank
    std::vector<Hello> peers_;
    RunPlan plan_;   // each run (each rail's apart), its repeats, the rounds
    RoundWord word_; // rank 0's word at the end of the last round
    // --resume: the earlier job's results (rank 0), and the pairs this rank
    // is the client of that they hold: (step, server rank).
    std::vector<RunResult> resumed_;
    std::set<std::pair<size_t, int>> skip_;
    std::string stopped_; // why the rounds ended early ("" = they did not)
    RunContext context_;
    size_t seq_ = 0; // the round under way, counted over the whole job
    // Rank 0: every finished pair, as they come (the coordinator's thread
    // adds what the other ranks send); every job of the schedule in the
    // results' order; and a rank's result it could not read.
    std::unique_ptr<PairStore> store_;
    std::vector<RunJob> order_;
    mutable std::mutex results_mu_;
    std::string unreadable_;
    std::mutex write_mu_; // -o is rewritten by both threads
    // The final outputs are being made, with the gone ranks as they were
    // then: a rank found gone now changes none of them.
    std::atomic<bool> finishing_{false};
    std::chrono::steady_clock::time_point last_write_{};
    double last_write_seconds_ = 0;
};

void MatrixRun::say(const std::string &line) const {
    if (job_.rank() == 0 && !options_.quiet) std::fprintf(stderr, "cmdbench: %s\n", line.c_str());
}

// This rank's hello: where its server listens (it starts it here), or why
// it has none; rank 0's also where its coordinator listens.
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
    if (job_.rank() == 0) {
        try {
            store_ = std::make_unique<PairStore>(store_dir());
        } catch (const std::exception &e) {
            me.error = e.what();
            return me;
        }
    }
    try {
        std::vector<std::string> files;
        for (const auto &p : registry_.plugins())
            files.push_back(p.file);
        // Every rail's address too, on the same port; a client runs all
        // rails at once, a session each.
        std::string listen = host;
        for (const RailAddress &r : me.rails)
            if (r.address != host) listen += "," + r.address;
        const int sessions =
            kServerSessions + int(me.rails.size()) + int(most_background_flows(scenario_));
        server_ = std::make_unique<ServerProcess>(self_executable(), files, listen,
                                                  ServerServing{false, sessions});
        me.address = published_address(host, server_->port());
        me.token = server_->token();
        if (job_.rank() == 0 && !options_.resume.empty()) {
            me.error = load_resumed();
            me.bad_input = !me.error.empty();
        }
        if (job_.rank() == 0) {
            coordinator_ =
                std::make_unique<Coordinator>(host, job_.size(), scenario_.matrix.dead_after);
            me.coordinator_port = coordinator_->port();
            me.coordinator_token = coordinator_->token();
        }
    } catch (const std::exception &e) {
        me.error = "cannot start a server on " + host + ": " + e.what();
    }
    return me;
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

// Rank 0, --resume FILE: the earlier job's results, checked to be a
// matrix job's with as many ranks and the same pattern; "" or what is wrong.
std::string MatrixRun::load_resumed() {
    const std::string what = "--resume " + options_.resume + ": ";
    const Expected<std::string> text = read_input_file(options_.resume, kMaxResultsBytes);
    if (!text) return what + text.error();
    try {
        Report old = parse_results(*text, options_.resume);
        if (!old.matrix) return what + "not the results of a matrix job";
        if (old.matrix->ranks.size() != size_t(job_.size()))
            return what + "a job of " + std::to_string(old.matrix->ranks.size()) +
                   " ranks; this one has " + std::to_string(job_.size()) +
                   " (resume with as many ranks)";
        if (old.matrix->pattern != to_string(scenario_.matrix.pattern))
            return what + "pattern " + old.matrix->pattern + "; this job's is " +
                   to_string(scenario_.matrix.pattern);
        resumed_ = std::move(old.runs);
    } catch (const ResultsError &e) {
        return what + e.what();
    }
    return "";
}

// Rank 0: the resumed pairs that finished are this job's (a pair not run
// there runs here); each rank is told which of its own to skip.
nlohmann::json MatrixRun::keep_resumed() {
    std::map<std::tuple<std::string, unsigned, int, int>, RunResult *> old;
    for (RunResult &r : resumed_)
        if (r.pair && r.status != RunStatus::Interrupted)
            old[{r.name, r.repeat, r.pair->client, r.pair->server}] = &r;
    Json skips = Json::object();
    size_t kept = 0, all = 0;
    plan_.for_each_job(0, 0, [&](const RunJob &job) {
        ++all;
        auto it = old.find({plan_.spec_of(job.step).name, plan_.repeat_of(job.step),
                            job.pair->client, job.pair->server});
        if (it == old.end()) return;
        ++kept;
        store_->add(*it->second);
        skips[std::to_string(job.pair->client)].push_back({job.step, job.pair->server});
    });
    if (!options_.resume.empty())
        say("matrix: --resume " + options_.resume + ": " + std::to_string(kept) + " of " +
            std::to_string(all) + " pairs kept, " + std::to_string(all - kept) + " to run");
    resumed_.clear();
    return skips;
}

// Every rank but 0 joins rank 0's coordinator, which takes them all and
// tells each the pairs it skips (--resume).
void MatrixRun::join_link() {
    Json skips = Json::object();
    if (job_.rank() == 0) {
        skips = keep_resumed();
        coordinator_->start(
            kWireupTimeout,
            [this](int rank, const std::string &doc) {
                take(doc, "the result rank " + std::to_string(rank) + " sent");
            },
            [this](const GoneRank &g) { rank_gone(g); },
            [&skips](int rank) {
                return Json{{"skip", skips.value(std::to_string(rank), Json::array())}};
            });
        skips = skips.value("0", Json::array());
    } else {
        const Hello &root = peers_[0];
        const std::string host = root.address.substr(0, root.address.rfind(':'));
        link_ = std::make_unique<RankLink>(host, root.coordinator_port, root.coordinator_token,
                                           job_.rank(), rank_name(0, peers_));
        skips = link_->start().value("skip", Json::array());
    }
    for (const Json &s : skips)
        skip_.insert({s.at(0).get<size_t>(), s.at(1).get<int>()});
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

// A finished pair to rank 0 at once: whatever dies later, it is kept.
void MatrixRun::hand_over(const RunResult &r) {
    if (job_.rank() == 0) {
        store_->add(r);
    } else {
        link_->send_result(results_text({r}));
    }
}

// Rank 0 (the coordinator's thread): a result another rank sent.
void MatrixRun::take(const std::string &doc, const std::string &from) {
    try {
        const Report theirs = parse_results(doc, from);
        for (const auto &run : theirs.runs)
            store_->add(run);
    } catch (const ResultsError &e) {
        std::lock_guard<std::mutex> lock(results_mu_);
        if (unreadable_.empty()) unreadable_ = e.what();
    }
}

// Rank 0 (the coordinator's thread): a rank is gone. Said once, and -o
// written at once with every pair so far: the launcher may end the job any
// moment now.
void MatrixRun::rank_gone(const GoneRank &g) {
    const std::string text = rank_name(g.rank, peers_) + " is gone in " + where(g.seq) + ": " +
                             g.why + "; the job goes on without it (its pairs are not run)";
    std::fprintf(stderr, "cmdbench: matrix: %s\n", text.c_str());
    if (finishing_) return;
    write_partial("", "not run: the job had not got to this pair when the file was written");
}

std::string MatrixRun::my_word() const {
    if (client_.abandoned) return "stop:not run: an earlier run could not be stopped";
    if (interrupted_) return "stop:not run: interrupted";
    return "go";
}

void MatrixRun::run_round(size_t s, size_t r) {
    const RunSpec &spec = plan_.spec_of(s);
    const double timeout = spec.timeout_s + kGraceSeconds + kRoundMargin;
    const auto began = std::chrono::steady_clock::now();
    for (const MatrixPair &p : plan_.rounds[r]) {
        if (p.client != job_.rank() || word_.is_gone(p.server) || skip_.count({s, p.server}))
            continue;
        if (interrupted_ || client_.abandoned) break;
        hand_over(run_pair(RunJob{s, r, &p}));
    }
    // The end of a round is where the ranks agree to go on: nothing of it
    // runs while a pair is timed.
    word_ = job_.rank() == 0 ? coordinator_->end_round(seq_, my_word(), began, timeout)
                             : link_->end_round(seq_, my_word(), timeout + kWordMargin);
    ++seq_;
    if (!word_.stop.empty()) stopped_ = word_.stop;
}

void MatrixRun::run_rounds() {
    for (size_t s = 0; s < plan_.steps.size(); ++s) {
        const RunSpec &spec = plan_.spec_of(s);
        say("matrix: run " + std::to_string(plan_.steps[s].part + 1) + "/" +
            std::to_string(plan_.parts.size()) + " '" + spec.name + "'" +
            (spec.repeat > 1 ? " repeat " + std::to_string(plan_.repeat_of(s)) + "/" +
                                   std::to_string(spec.repeat)
                             : "") +
            ": " + std::to_string(plan_.rounds.size()) + " rounds");
        for (size_t r = 0; r < plan_.rounds.size(); ++r) {
            run_round(s, r);
            if (!stopped_.empty()) return;
            const bool last = s + 1 == plan_.steps.size() && r + 1 == plan_.rounds.size();
            if (job_.rank() == 0 && !last && write_due())
                write_partial("incomplete: written after " + where(seq_ - 1) +
                                  "; the job had not finished (if this note stays, it never did)",
                              "not run: the job had not got to this pair when the file was "
                              "written");
        }
        const bool run_ended =
            s + 1 == plan_.steps.size() || plan_.steps[s + 1].part != plan_.steps[s].part;
        if (job_.rank() == 0 && run_ended) print_run(spec.name);
    }
}

// Rank 0: a run whose every pair is done is printed at once on a table
// stdout (result_sink.hpp), before anything can end the job.
void MatrixRun::print_run(const std::string &name) {
    if (!sink_.prints_matrix_runs()) return;
    std::lock_guard<std::mutex> lock(write_mu_);
    sink_.matrix_run_done(assemble("", "not run", coordinator_->gone()), name);
}

// "round 3 of 6 of run 'latency'" for round `seq` of the job.
std::string MatrixRun::where(size_t seq) const {
    const size_t rounds = std::max<size_t>(1, plan_.rounds.size());
    const size_t step = std::min(seq / rounds, plan_.steps.size() - 1);
    const RunSpec &spec = plan_.spec_of(step);
    std::string w = "round " + std::to_string(seq % rounds + 1) + " of " +
                    std::to_string(plan_.rounds.size()) + " of run '" + spec.name + "'";
    if (spec.repeat > 1) w += " repeat " + std::to_string(plan_.repeat_of(step));
    return w;
}

// The gone rank that keeps `job` from counting, if any: one of its two
// ranks, gone before the pair's round ended.
const GoneRank *MatrixRun::gone_from(const RunJob &job, const std::vector<GoneRank> &gone) const {
    const size_t seq = job.step * plan_.rounds.size() + job.round;
    for (const GoneRank &g : gone)
        if ((g.rank == job.pair->client || g.rank == job.pair->server) && g.seq <= seq) return &g;
    return nullptr;
}

// Rank 0: where the pairs' results wait for the outputs: beside -o, whose
// disk takes them anyway, else the temporary directory ($TMPDIR).
std::string MatrixRun::store_dir() const {
    const std::string &out = options_.output;
    if (!out.empty() && !output_is_stream(out)) {
        const std::filesystem::path dir = std::filesystem::path(out).parent_path();
        return dir.empty() ? "." : dir.string();
    }
    std::error_code ec;
    const std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
    return ec ? "/tmp" : tmp.string();
}

// Rank 0: every job of the schedule in the order of the results: by run
// (scenario order), repeat, client, server.
void MatrixRun::order_jobs() {
    std::vector<std::pair<std::tuple<size_t, unsigned, int, int>, RunJob>> all;
    plan_.for_each_job(0, 0, [&](const RunJob &job) {
        size_t part = 0;
        const std::string &name = plan_.spec_of(job.step).name;
        while (part < plan_.parts.size() && plan_.parts[part].spec.name != name)
            ++part;
        all.push_back({{part, plan_.repeat_of(job.step), job.pair->client, job.pair->server}, job});
    });
    std::stable_sort(all.begin(), all.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    order_.reserve(all.size());
    for (const auto &entry : all)
        order_.push_back(entry.second);
}

// Rank 0: every pair of the schedule, read back one at a time: each
// finished one, and each other as not run: for a gone rank's (GONE), that
// rank and why; else `why_not_run`. A pair that failed because a rank in it
// went is not run too (the failure is the rank's, not the link's).
RunStream MatrixRun::whole(const std::string &why_not_run,
                           const std::vector<GoneRank> &gone) const {
    return [this, why_not_run, gone](const RunVisitor &visit) {
        for (const RunJob &job : order_) {
            const RunSpec &spec = plan_.spec_of(job.step);
            const std::optional<RunResult> found = store_->get(
                {spec.name, plan_.repeat_of(job.step), job.pair->client, job.pair->server});
            const GoneRank *g = gone_from(job, gone);
            if (found && (found->status == RunStatus::Ok || !g)) {
                visit(*found);
                continue;
            }
            std::string why = why_not_run;
            if (g)
                why = "not run: " + rank_name(g->rank, peers_) + " was gone: " + g->why +
                      (found ? " (the pair's own error: " + found->error + ")" : "");
            RunResult res = cmdbench::not_run(plan_, job, why);
            res.pair = pair_of(job);
            visit(res);
        }
    };
}

// The document rank 0 writes: the job's context and ranks, and the runs
// (whole()) in scenario order, then repeat, then pair.
Report MatrixRun::assemble(const std::string &note, const std::string &why_not_run,
                           const std::vector<GoneRank> &gone) const {
    Report all;
    all.context = context_;
    if (!note.empty()) all.context.notes.push_back(note);
    for (const GoneRank &g : gone)
        all.context.notes.push_back(rank_name(g.rank, peers_) + " is gone since " + where(g.seq) +
                                    ": " + g.why + "; its pairs from there are not run");
    all.baseline = scenario_.baseline;
    MatrixInfo info;
    info.pattern = to_string(scenario_.matrix.pattern);
    info.one_pair_at_a_time = scenario_.matrix.one_pair_at_a_time;
    info.rounds = unsigned(plan_.rounds.size());
    info.launcher = job_.describe();
    info.worst_links = scenario_.matrix.worst_links;
    for (size_t r = 0; r < peers_.size(); ++r)
        info.ranks.push_back({int(r), peers_[r].node, peers_[r].address});
    all.matrix = std::move(info);
    all.streamed = whole(why_not_run, gone);
    return all;
}

// Rank 0, before the end: -o with every pair finished so far, and every
// other pair of the schedule as not run (`why_not_run`), so that the file
// is whole however the job ends from here. Stdout, FIFOs and devices get
// the final document only.
void MatrixRun::write_partial(const std::string &note, const std::string &why_not_run) {
    const std::string &path = options_.output;
    if (path.empty() || output_is_stream(path)) return;
    std::lock_guard<std::mutex> lock(write_mu_);
    const auto began = std::chrono::steady_clock::now();
    sink_.write_interim(assemble(note, why_not_run, coordinator_->gone()));
    const auto ended = std::chrono::steady_clock::now();
    last_write_ = ended;
    last_write_seconds_ = std::chrono::duration<double>(ended - began).count();
}

// Rank 0: whether to rewrite -o now: once the last write is far enough
// back for its cost.
bool MatrixRun::write_due() {
    if (options_.output.empty() || output_is_stream(options_.output)) return false;
    std::lock_guard<std::mutex> lock(write_mu_); // the coordinator's thread writes too
    if (last_write_ == std::chrono::steady_clock::time_point{}) return true;
    const double since =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - last_write_).count();
    return since >= std::max(kMinWriteInterval, kWriteShare * last_write_seconds_);
}

// Rank 0 reports and tells every rank still there the exit status; the
// others wait for it.
int MatrixRun::finish() {
    if (job_.rank() != 0) return link_->wait_end(kEndTimeout);
    int status = kExitOk;
    const std::string why = stopped_.empty() ? "not run" : stopped_;
    finishing_ = true;
    // One list of gone ranks for every output: one found gone from here on
    // changes none of them.
    const std::vector<GoneRank> gone = coordinator_->gone();
    {
        std::lock_guard<std::mutex> lock(results_mu_);
        if (!unreadable_.empty()) {
            std::fprintf(stderr, "cmdbench: matrix: %s\n", unreadable_.c_str());
            status = kExitRunFailed;
        }
    }
    if (const std::string p = store_->problem(); !p.empty())
        std::fprintf(stderr, "cmdbench: matrix: %s\n", p.c_str());
    {
        std::lock_guard<std::mutex> lock(write_mu_);
        status = std::max(status, report(assemble("", why, gone)));
    }
    if (!gone.empty()) status = std::max(status, int(kExitRunFailed));
    coordinator_->finish(status);
    // A stopped rank would keep the launcher waiting for ever: with every
    // output written and every rank told, have the launcher end it (or, if
    // it cannot, the job).
    for (const GoneRank &g : gone)
        if (g.silent && !interrupted_ && !job_.kill_rank(g.rank)) {
            std::fflush(nullptr);
            job_.abort(status, rank_name(g.rank, peers_) + " is gone; the job ended without it");
            break;
        }
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
    if (job_.rank() == 0) order_jobs();
    size_t pairs = 0;
    for (const auto &round : plan_.rounds)
        pairs += round.size();
    say("matrix: " + std::string(to_string(scenario_.matrix.pattern)) + ", " +
        std::to_string(job_.size()) + " ranks on " + job_.describe() + ": " +
        std::to_string(pairs) + " pairs in " + std::to_string(plan_.rounds.size()) +
        " rounds per run");
    int status = kExitRunFailed;
    try {
        join_link();
        run_rounds();
        status = finish();
    } catch (const JobError &e) {
        // Rank 0 is gone or gave up on this rank: the job may go on without
        // this one, so it must not ask the launcher to end the job.
        std::fprintf(stderr, "cmdbench: matrix: rank %d: %s\n", job_.rank(), e.what());
    }
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
        // The wire-up failed (a rank died or the launcher's collective timed
        // out): the job cannot start.
        std::fprintf(stderr, "cmdbench: matrix: rank %d: %s\n", job.rank(), e.what());
        // Interrupted (SIGTERM: the launcher is ending the job already, e.g.
        // after a rank died), PMIx_Abort would only block until the SIGKILL.
        if (!interrupted) job.abort(kExitRunFailed, e.what());
        return kExitRunFailed;
    }
}

} // namespace cmdbench
