// The matrix runner. Collectives (Job::allgather) happen only between runs:
// once to exchange the servers, once after every round (which doubles as
// the agreement to go on), and twice at the end (results to rank 0, the
// common exit status). Each has a bound, so a dead or stuck rank ends the
// job with an error instead of a hang.
#include "matrix_runner.hpp"

#include "matrix_address.hpp"
#include "matrix_schedule.hpp"
#include "output_file.hpp"
#include "progress.hpp"
#include "report.hpp"
#include "report_matrix.hpp"
#include "results_reader.hpp"
#include "run_client.hpp"
#include "server_process.hpp"
#include "sha256.hpp"
#include "test_executor.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

namespace cmdbench {
namespace {

using Json = nlohmann::json;

constexpr double kWireupTimeout = 60;  // every rank's server up and published
constexpr double kGatherTimeout = 300; // the results of every rank to rank 0
// A round waits for its slowest pair: the run's timeout, the test's grace,
// and time to connect, hand over the results and close.
constexpr double kRoundMargin = 30;
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
    std::string digest;  // of the effective scenario text
    std::string node;    // Job::node()
    std::string address; // "host:port" of its server; empty when it could not start one
    std::string token;   // that server's token (the job is private to its launcher)
    std::string error;   // why it has no server
};

std::string hello_text(const Hello &h) {
    return Json{{"digest", h.digest},
                {"node", h.node},
                {"address", h.address},
                {"token", h.token},
                {"error", h.error}}
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
    } catch (const std::exception &e) {
        h.error = std::string("unreadable hello: ") + e.what();
    }
    return h;
}

// Every repetition of every run, in scenario order.
struct Step {
    size_t run;
    unsigned repeat;
};

std::vector<Step> plan_of(const Scenario &scenario) {
    std::vector<Step> plan;
    for (size_t i = 0; i < scenario.runs.size(); ++i)
        for (unsigned k = 1; k <= scenario.runs[i].repeat; ++k)
            plan.push_back({i, k});
    return plan;
}

class MatrixRun {
  public:
    MatrixRun(Job &job, const Scenario &scenario, const Registry &registry,
              const RunOptions &options, const std::atomic<bool> &interrupted)
        : job_(job), scenario_(scenario), registry_(registry), options_(options),
          interrupted_(interrupted),
          progress_(true), client_{registry, interrupted, progress_, kLoopbackNode, false} {}

    int run(RunContext context);

  private:
    int wire_up(const std::string &digest);
    void run_rounds();
    void not_run(size_t from_step, size_t from_round, const std::string &why);
    RunResult run_pair(const Step &step, const MatrixPair &pair, size_t round);
    int finish(RunContext context);
    int report(Report report);
    void say(const std::string &line) const; // rank 0, unless --quiet

    Job &job_;
    const Scenario &scenario_;
    const Registry &registry_;
    const RunOptions &options_;
    const std::atomic<bool> &interrupted_;
    Progress progress_;
    ClientState client_;
    std::unique_ptr<ServerProcess> server_;
    std::vector<Hello> peers_;
    std::vector<MatrixRound> rounds_;
    std::vector<Step> plan_;
    std::vector<RunResult> mine_; // the runs this rank was the client of
    std::string stopped_;         // why the rounds ended early ("" = they did not)
};

void MatrixRun::say(const std::string &line) const {
    if (job_.rank() == 0 && !options_.quiet) std::fprintf(stderr, "cmdbench: %s\n", line.c_str());
}

int MatrixRun::wire_up(const std::string &digest) {
    Hello me;
    me.digest = digest;
    me.node = job_.node();
    const std::string host = matrix_listen_address(scenario_.matrix, me.node);
    try {
        std::vector<std::string> files;
        for (const auto &p : registry_.plugins())
            files.push_back(p.file);
        server_ = std::make_unique<ServerProcess>(self_executable(), files, host,
                                                  ServerServing{false, kServerSessions});
        me.address = published_address(host, server_->port());
        me.token = server_->token();
    } catch (const std::exception &e) {
        me.error = "cannot start a server on " + host + ": " + e.what();
    }
    const auto texts = job_.allgather("cmdbench.matrix.hello", hello_text(me), kWireupTimeout);
    for (const auto &t : texts)
        peers_.push_back(parse_hello(t));

    // Every rank sees the same hellos, so every rank reaches the same verdict.
    const int rank = job_.rank();
    std::vector<std::string> problems;
    bool usage = false;
    std::vector<std::string> nodes;
    for (const Hello &h : peers_)
        if (std::find(nodes.begin(), nodes.end(), h.node) == nodes.end()) nodes.push_back(h.node);
    for (size_t r = 0; r < peers_.size(); ++r) {
        const Hello &h = peers_[r];
        const std::string who = "rank " + std::to_string(r) + " (" + h.node + ")";
        if (h.digest != peers_[0].digest) {
            usage = true;
            problems.push_back(who +
                               " runs a different scenario than rank 0 (effective scenario "
                               "digest " +
                               h.digest.substr(0, 12) + " vs " + peers_[0].digest.substr(0, 12) +
                               "): give every rank the same file and --set options");
        }
        if (!h.error.empty()) problems.push_back(who + ": " + h.error);
        const std::string addr_host = h.address.substr(0, h.address.rfind(':'));
        if (nodes.size() > 1 && is_loopback_address(addr_host)) {
            usage = true;
            problems.push_back(who + " would serve on the loopback address " + h.address +
                               ", but the job spans " + std::to_string(nodes.size()) +
                               " nodes: set [matrix] address, or make the node name resolve to "
                               "an address the other nodes reach");
        }
    }
    if (problems.empty()) return kExitOk;
    // Rank 0 says everything; the others only what is about themselves.
    for (const std::string &p : problems)
        if (rank == 0 || p.rfind("rank " + std::to_string(rank) + " ", 0) == 0)
            std::fprintf(stderr, "cmdbench: matrix: %s\n", p.c_str());
    return usage ? kExitUsage : kExitRunFailed;
}

RunResult MatrixRun::run_pair(const Step &step, const MatrixPair &pair, size_t round) {
    const RunSpec &spec = scenario_.runs[step.run];
    const Hello &server = peers_[size_t(pair.server)];
    ClientSession session;
    session.server = server.address;
    session.token = server.token;
    session.label = "the server of rank " + std::to_string(pair.server) + " (" + server.node +
                    ", " + server.address + ")";
    RunResult r = run_client(client_, session, spec, step.repeat);
    close_session(session);
    r.pair = RunPair{pair.client, pair.server, peers_[size_t(pair.client)].node, server.node,
                     unsigned(round + 1)};
    return r;
}

// The pairs this rank would still have run as a client, reported as not run.
void MatrixRun::not_run(size_t from_step, size_t from_round, const std::string &why) {
    for (size_t s = from_step; s < plan_.size(); ++s)
        for (size_t r = s == from_step ? from_round : 0; r < rounds_.size(); ++r)
            for (const MatrixPair &p : rounds_[r])
                if (p.client == job_.rank()) {
                    RunResult res = result_of(scenario_.runs[plan_[s].run], plan_[s].repeat);
                    res.status = RunStatus::Interrupted;
                    res.error = why;
                    res.pair = RunPair{p.client, p.server, peers_[size_t(p.client)].node,
                                       peers_[size_t(p.server)].node, unsigned(r + 1)};
                    mine_.push_back(std::move(res));
                }
}

void MatrixRun::run_rounds() {
    const int rank = job_.rank();
    for (size_t s = 0; s < plan_.size(); ++s) {
        const RunSpec &spec = scenario_.runs[plan_[s].run];
        say("matrix: run " + std::to_string(plan_[s].run + 1) + "/" +
            std::to_string(scenario_.runs.size()) + " '" + spec.name + "'" +
            (spec.repeat > 1
                 ? " repeat " + std::to_string(plan_[s].repeat) + "/" + std::to_string(spec.repeat)
                 : "") +
            ": " + std::to_string(rounds_.size()) + " rounds");
        const double round_timeout = spec.timeout_s + kGraceSeconds + kRoundMargin;
        for (size_t r = 0; r < rounds_.size(); ++r) {
            for (const MatrixPair &p : rounds_[r])
                if (p.client == rank) mine_.push_back(run_pair(plan_[s], p, r));
            // The end of a round is where the ranks agree to go on: no
            // collective runs while a pair is timed.
            std::string word = "go";
            if (client_.abandoned)
                word = "stop:not run: an earlier run could not be stopped";
            else if (interrupted_)
                word = "stop:not run: interrupted";
            const auto words = job_.allgather("cmdbench.matrix.round." + std::to_string(s) + "." +
                                                  std::to_string(r),
                                              word, round_timeout);
            for (const std::string &w : words)
                if (w.rfind("stop:", 0) == 0 && stopped_.empty()) stopped_ = w.substr(5);
            if (!stopped_.empty()) {
                not_run(s, r + 1, stopped_);
                return;
            }
        }
    }
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

int MatrixRun::finish(RunContext context) {
    const auto texts =
        job_.allgather("cmdbench.matrix.results", results_text(mine_), kGatherTimeout);
    int status = kExitOk;
    if (job_.rank() == 0) {
        Report all;
        all.context = std::move(context);
        all.baseline = scenario_.baseline;
        MatrixInfo info;
        info.pattern = to_string(scenario_.matrix.pattern);
        info.one_pair_at_a_time = scenario_.matrix.one_pair_at_a_time;
        info.rounds = unsigned(rounds_.size());
        info.launcher = job_.describe();
        for (size_t r = 0; r < peers_.size(); ++r)
            info.ranks.push_back({int(r), peers_[r].node, peers_[r].address});
        all.matrix = std::move(info);
        try {
            for (size_t r = 0; r < texts.size(); ++r) {
                Report theirs = parse_results(texts[r], "the results of rank " + std::to_string(r));
                for (auto &run : theirs.runs)
                    all.runs.push_back(std::move(run));
            }
        } catch (const ResultsError &e) {
            std::fprintf(stderr, "cmdbench: matrix: %s\n", e.what());
            status = kExitRunFailed;
        }
        status = std::max(status, report(std::move(all)));
    }
    // The same status on every rank: the worst any rank has.
    const auto statuses = job_.allgather("cmdbench.matrix.status", std::to_string(status), 60);
    for (const std::string &s : statuses)
        status = std::max(status, std::atoi(s.c_str()));
    return status;
}

bool ends_with(const std::string &s, const std::string &suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string formatted(const std::string &format, const Report &report) {
    std::ostringstream out;
    if (format == "json")
        write_json(out, report);
    else if (format == "csv")
        write_csv(out, report);
    else
        write_matrix_table(out, report);
    return out.str();
}

// Rank 0: stdout, -o and --report; the exit status the results call for.
int MatrixRun::report(Report all) {
    // Runs in scenario order, then repeat, then pair.
    auto order = [&](const RunResult &r) {
        size_t i = 0;
        while (i < scenario_.runs.size() && scenario_.runs[i].name != r.name)
            ++i;
        return std::make_tuple(i, r.repeat, r.pair ? r.pair->client : 0,
                               r.pair ? r.pair->server : 0);
    };
    std::stable_sort(all.runs.begin(), all.runs.end(),
                     [&](const RunResult &a, const RunResult &b) { return order(a) < order(b); });
    bool write_failed = false;
    std::cout << formatted(options_.format, all);
    std::cout.flush();
    if (!std::cout) {
        write_failed = true;
        std::fprintf(stderr, "cmdbench: cannot write the results to standard output\n");
    }
    auto write = [&](const std::string &path, const std::string &text) {
        const std::string why = write_output(path, text);
        if (why.empty()) return;
        write_failed = true;
        std::fprintf(stderr, "cmdbench: cannot write %s: %s\n", path.c_str(), why.c_str());
    };
    if (!options_.output.empty()) {
        const std::string &f = options_.output;
        write(f, formatted(ends_with(f, ".json")  ? "json"
                           : ends_with(f, ".csv") ? "csv"
                                                  : "table",
                           all));
    }
    if (!options_.report.empty()) {
        std::ostringstream page;
        write_matrix_html(page, all);
        write(options_.report, page.str());
    }
    if (!stopped_.empty() && stopped_.find("interrupted") != std::string::npos)
        return kExitInterrupted;
    int failed = 0, skipped = 0;
    for (const auto &r : all.runs) {
        if (r.status == RunStatus::Skipped)
            ++skipped;
        else if (r.status != RunStatus::Ok)
            ++failed;
    }
    if (failed) {
        std::fprintf(stderr, "cmdbench: %d of %zu pair runs did not succeed\n", failed,
                     all.runs.size());
        return kExitRunFailed;
    }
    if (skipped && !options_.allow_skip) {
        std::fprintf(stderr,
                     "cmdbench: %d of %zu pair runs were skipped (pass --allow-skip to accept "
                     "that)\n",
                     skipped, all.runs.size());
        return kExitRunFailed;
    }
    return write_failed ? kExitRunFailed : kExitOk;
}

int MatrixRun::run(RunContext context) {
    const Sha256Digest d = sha256(context.scenario_text.data(), context.scenario_text.size());
    const int wired = wire_up(hex(d));
    if (wired != kExitOk) return wired;
    rounds_ =
        matrix_schedule(scenario_.matrix.pattern, job_.size(), scenario_.matrix.one_pair_at_a_time);
    plan_ = plan_of(scenario_);
    size_t pairs = 0;
    for (const auto &round : rounds_)
        pairs += round.size();
    say("matrix: " + std::string(to_string(scenario_.matrix.pattern)) + ", " +
        std::to_string(job_.size()) + " ranks on " + job_.describe() + ": " +
        std::to_string(pairs) + " pairs in " + std::to_string(rounds_.size()) + " rounds per run");
    run_rounds();
    const int status = finish(std::move(context));
    if (client_.abandoned) {
        // A test thread is still running inside this process: the results
        // are out, so leave without waiting for it.
        std::fflush(nullptr);
        server_->stop(0);
        _exit(status == kExitOk ? kExitRunFailed : status);
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
        job.abort(kExitRunFailed, e.what());
        return kExitRunFailed;
    }
}

} // namespace cmdbench
