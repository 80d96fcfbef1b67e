// End to end: `cmdbench run` under mpirun runs the matrix (docs/matrix.md):
// 4 ranks all-pairs over TCP with the JSON, table and HTML reports, ring and
// bisection pair sets, `cpus` per side, a scenario mismatch between ranks, a
// rank killed mid-run (the finished pairs kept, the rank named), a single
// rank bound to one core, [matrix] interface and device, and no launcher
// (today's single-pair output). The 64-rank case is
// tagged [scale] and registered separately (label cluster;scale).
#include "launchers.hpp"
#include "process.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <unistd.h>

using nlohmann::json;

namespace {

const std::string &dir() {
    static const std::string d = temp_dir();
    return d;
}

std::string write(const std::string &name, const std::string &text) {
    const std::string path = dir() + "/" + name;
    std::ofstream(path) << text;
    return path;
}

// Tiny TCP pingpong runs: latency and bandwidth, under `pattern`. The
// bandwidth run moves 5 x 10 x 4 KiB each way, not rstream's count rule
// (390 MB a pair, 6 s each on the 2-core CI host).
std::string scenario(const std::string &name, const std::string &pattern, int iterations = 200) {
    return write(name, "[matrix]\npattern = \"" + pattern +
                           "\"\naddress = \"127.0.0.1\"\n\n[defaults]\ntransport = \"tcp\"\n"
                           "timeout = 60\n\n[[run]]\nname = \"latency\"\ntest = \"pingpong\"\n"
                           "sizes = [64]\niterations = " +
                           std::to_string(iterations) +
                           "\ntransfer_count = 1\n\n[[run]]\nname = \"bandwidth\"\n"
                           "test = \"pingpong\"\nsizes = [4096]\niterations = 5\n"
                           "transfer_count = 10\n");
}

std::set<std::pair<int, int>> pairs_in(const json &doc, const std::string &run) {
    std::set<std::pair<int, int>> out;
    for (const json &r : doc["runs"])
        if (r["name"] == run)
            out.insert({r["pair"]["client"].get<int>(), r["pair"]["server"].get<int>()});
    return out;
}

json run_matrix(int n, const std::string &toml, const std::string &out_json,
                std::vector<std::string> extra = {}, int timeout = 240) {
    std::vector<std::string> cmd = {cmdbench_exe(), "run", toml, "-o", out_json, "-q"};
    cmd.insert(cmd.end(), extra.begin(), extra.end());
    const ProcessResult r = run_process(mpirun_np(n, cmd), timeout, kRootOk);
    INFO("exit " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    return json::parse(read_file(out_json));
}

} // namespace

TEST_CASE("mpirun -np 4: all-pairs JSON with 12 pairs per run, table and HTML heatmap") {
    const std::string out = dir() + "/all.json", html = dir() + "/all.html";
    const std::string toml = scenario("all.toml", "all-pairs");
    const ProcessResult r =
        run_process(mpirun_np(4, {cmdbench_exe(), "run", toml, "-o", out, "--report", html, "-q"}),
                    240, kRootOk);
    INFO("exit " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    const json doc = json::parse(read_file(out));
    CHECK(doc["schema_version"] == 4);
    CHECK(doc["matrix"]["pattern"] == "all-pairs");
    CHECK(doc["matrix"]["rounds"] == 6);
    REQUIRE(doc["matrix"]["ranks"].size() == 4);
    REQUIRE(doc["runs"].size() == 24);
    std::set<std::pair<int, int>> expected;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            if (i != j) expected.insert({i, j});
    CHECK(pairs_in(doc, "latency") == expected);
    CHECK(pairs_in(doc, "bandwidth") == expected);
    for (const json &run : doc["runs"]) {
        CHECK(run["status"] == "ok");
        REQUIRE(run["rows"].size() == 1);
    }
    // Rank 0 alone prints: one table with the 4x4 matrix and slowest links.
    CHECK(r.out.find("matrix: all-pairs, 4 ranks, 6 rounds per run") != std::string::npos);
    CHECK(r.out.rfind("matrix: all-pairs") == r.out.find("matrix: all-pairs"));
    CHECK(r.out.find("latency (pingpong/tcp): latency_p50 (us) of row 64_lat; 12 of 12 pairs") !=
          std::string::npos);
    CHECK(r.out.find("bandwidth (pingpong/tcp): bandwidth (Gb/s) of row 4k_bw; 12 of 12 pairs") !=
          std::string::npos);
    CHECK(r.out.find("slowest links (ratio to the median") != std::string::npos);
    CHECK(r.out.find("FAIL") == std::string::npos);
    const std::string page = read_file(html);
    size_t cells = 0;
    for (size_t at = page.find("<td style="); at != std::string::npos;
         at = page.find("<td style=", at + 1))
        ++cells;
    CHECK(cells == 24);
    CHECK(page.find("Slowest links") != std::string::npos);
}

TEST_CASE("mpirun -np 4: ring and bisection pair sets, --pattern overrides the file") {
    const json ring = run_matrix(4, scenario("ring.toml", "ring"), dir() + "/ring.json");
    CHECK(pairs_in(ring, "latency") ==
          std::set<std::pair<int, int>>{{0, 1}, {1, 2}, {2, 3}, {3, 0}});
    CHECK(ring["matrix"]["rounds"] == 2);
    const json bis = run_matrix(4, scenario("bis.toml", "ring"), dir() + "/bis.json",
                                {"--pattern", "bisection"});
    CHECK(bis["matrix"]["pattern"] == "bisection");
    CHECK(pairs_in(bis, "bandwidth") ==
          std::set<std::pair<int, int>>{{0, 2}, {1, 3}, {2, 0}, {3, 1}});
}

TEST_CASE("mpirun: ranks with different scenarios fail cleanly with exit 2") {
    const std::string a = scenario("a.toml", "all-pairs");
    // Rank 1 runs other --set options: a different effective scenario.
    const ProcessResult r =
        run_process({mpirun(), "--oversubscribe", "-np", "1", cmdbench_exe(), "run", a, "-q", ":",
                     "-np", "1", cmdbench_exe(), "run", a, "-q", "--set", "iterations=7"},
                    120, kRootOk);
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("runs a different scenario than rank 0") != std::string::npos);
    CHECK(r.seconds < wall_bound(60));
    // mpirun may return while the rank it killed is still exiting (slow
    // under sanitizers): give it 10 s.
    for (int i = 0; i < 100 && process_running_with(a); ++i)
        usleep(100000);
    CHECK_FALSE(process_running_with(a));
}

// The ranks of a 4-rank job as they start ("RANK PID" lines in `pids`).
pid_t rank_pid(const std::string &pids, int rank) {
    std::ifstream in(pids);
    for (int r, pid; in >> r >> pid;)
        if (r == rank) return pid;
    return 0;
}

// A 4-rank job of `toml` under mpirun with `mpirun_options`, each rank
// recording its pid first; started, not waited for.
pid_t start_matrix_job(const std::string &toml, const std::string &out, const std::string &pids,
                       const std::string &name, std::vector<std::string> mpirun_options) {
    std::remove(pids.c_str());
    std::remove(out.c_str());
    const std::string cmd = "echo $OMPI_COMM_WORLD_RANK $$ >> " + pids + "; exec " +
                            cmdbench_exe() + " run " + toml + " -o " + out;
    mpirun_options.insert(mpirun_options.end(), {"/bin/sh", "-c", cmd});
    std::vector<std::string> argv = mpirun_np(4, mpirun_options);
    argv.insert(argv.begin(), kRootOk.begin(), kRootOk.end());
    argv.insert(argv.begin(), "/usr/bin/env");
    return start_process(argv, dir() + "/" + name + ".out", dir() + "/" + name + ".err");
}

// Waits (bounded) for rank 0 to say `text` on stderr.
bool wait_for_err(const std::string &name, const std::string &text) {
    for (int i = 0; i < 1200; ++i) {
        if (read_file(dir() + "/" + name + ".err").find(text) != std::string::npos) return true;
        usleep(50000);
    }
    return false;
}

size_t count_of(const std::string &text, const std::string &what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

TEST_CASE("mpirun: a rank killed mid-run: no hang, finished pairs kept, the rank named") {
    // A short run whose 12 pairs finish, then one that never ends: rank 2
    // is killed in its first round. mpirun ends the job (it was not told
    // to go on without a rank: --enable-recovery).
    const std::string toml =
        write("kill.toml", "[matrix]\naddress = \"127.0.0.1\"\n\n[defaults]\ntransport = \"tcp\"\n"
                           "timeout = 60\n\n[[run]]\nname = \"latency\"\ntest = \"pingpong\"\n"
                           "sizes = [64]\niterations = 50\ntransfer_count = 1\n\n[[run]]\n"
                           "name = \"endless\"\ntest = \"pingpong\"\nsizes = [64]\n"
                           "iterations = 2000000\ntransfer_count = 1\n");
    const std::string pids = dir() + "/pids", out = dir() + "/kill.json";
    const pid_t job = start_matrix_job(toml, out, pids, "kill", {});
    REQUIRE(wait_for_err("kill", "run 2/2"));
    usleep(500000);
    const pid_t victim = rank_pid(pids, 2);
    REQUIRE(victim > 0);
    REQUIRE(kill(victim, SIGKILL) == 0);
    const int code = wait_process(job, 90);
    const std::string stderr_text = read_file(dir() + "/kill.err");
    INFO("stderr: " << stderr_text);
    CHECK(code != 0);
    CHECK(code != -1); // -1: still running after 90 s, killed by the test
    // Rank 0 names it the moment its link closes, before mpirun ends the job.
    CHECK(stderr_text.find("cmdbench: matrix: rank 2 (") != std::string::npos);
    CHECK(stderr_text.find("is gone in round 1 of 6 of run 'endless': its link to rank 0 broke") !=
          std::string::npos);
    // The finished run is in the file, every pair of the other as not run,
    // and a note names the rank.
    const json doc = json::parse(read_file(out));
    int ok = 0, not_run = 0;
    for (const json &run : doc["runs"]) {
        if (run["name"] == "latency" && run["status"] == "ok") ++ok;
        if (run["name"] == "endless" && run["status"] != "ok") ++not_run;
    }
    CHECK(ok == 12);
    CHECK(not_run == 12);
    REQUIRE(doc["context"]["notes"].size() == 1);
    const std::string note = doc["context"]["notes"][0];
    CHECK(note.find("rank 2 (") != std::string::npos);
    CHECK(note.find("is gone") != std::string::npos);
    sleep(1);
    CHECK_FALSE(process_running_with(toml));
}

// Tiny pairs, then 6 rounds of about a second each: time to stop a rank in
// the middle and for the job to go on without it. A pair left waiting on
// the gone rank would take the run's timeout of 300 s: far above what the
// tests allow, even under sanitizers.
std::string paced_scenario(const std::string &name, int iterations = 20000) {
    return write(name, "[matrix]\naddress = \"127.0.0.1\"\ndead_after = 2\n\n[defaults]\n"
                       "transport = \"tcp\"\ntimeout = 300\n\n[[run]]\nname = \"latency\"\n"
                       "test = \"pingpong\"\nsizes = [64]\niterations = 50\ntransfer_count = 1\n\n"
                       "[[run]]\nname = \"paced\"\ntest = \"pingpong\"\nsizes = [64]\n"
                       "iterations = " +
                           std::to_string(iterations) + "\ntransfer_count = 1\nblocking = true\n");
}

// The job went on without rank 2: every pair of the first run and every
// pair of the second without rank 2 ran; those with it are not run, naming
// it. `in_flight_ok`: a pair it served when it went may have finished.
void check_went_on(const json &doc, const std::string &why) {
    int latency = 0, others = 0, without = 0;
    for (const json &run : doc["runs"]) {
        const int c = run["pair"]["client"], s = run["pair"]["server"];
        INFO(run["name"] << " " << c << " -> " << s << ": " << run["status"] << " "
                         << run.value("error", ""));
        if (run["name"] == "latency") {
            latency += run["status"] == "ok";
        } else if (c != 2 && s != 2) {
            CHECK(run["status"] == "ok");
            ++others;
        } else if (run["status"] != "ok") {
            CHECK(run["status"] == "interrupted");
            const std::string error = run["error"];
            CHECK(error.find("not run: rank 2 (") != std::string::npos);
            CHECK(error.find(why) != std::string::npos);
            ++without;
        }
    }
    CHECK(latency == 12);
    CHECK(others == 6);
    CHECK(without >= 5); // the pair rank 2 served may have ended first
}

TEST_CASE("mpirun --enable-recovery: a killed rank is named once, the job goes on without it") {
    const std::string toml = paced_scenario("recover.toml");
    const std::string pids = dir() + "/pids-recover", out = dir() + "/recover.json";
    const pid_t job = start_matrix_job(toml, out, pids, "recover", {"--enable-recovery"});
    REQUIRE(wait_for_err("recover", "run 2/2"));
    usleep(300000);
    const pid_t victim = rank_pid(pids, 2);
    REQUIRE(victim > 0);
    const auto killed = std::chrono::steady_clock::now();
    REQUIRE(kill(victim, SIGKILL) == 0);
    const int code = wait_process(job, 240);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count();
    const std::string err = read_file(dir() + "/recover.err");
    INFO("exit " << code << ", " << took << " s after the kill; stderr: " << err);
    CHECK(code != -1);
    CHECK(took < 150); // the rest of the rounds, not the run's timeout
    CHECK(count_of(err, "rank 2 (") == 1);
    CHECK(err.find("its link to rank 0 broke (killed or crashed?)") != std::string::npos);
    CHECK(err.find("the job goes on without it") != std::string::npos);
    CHECK(err.find("pair runs did not succeed") != std::string::npos);
    const json first = json::parse(read_file(out));
    check_went_on(first, "its link to rank 0 broke");
    sleep(1);
    CHECK_FALSE(process_running_with(toml));

    // --resume: the node is back; only the pairs not run are run.
    const std::string again = dir() + "/resumed.json";
    const ProcessResult r = run_process(
        mpirun_np(4, {cmdbench_exe(), "run", toml, "-o", again, "--resume", out}), 120, kRootOk);
    INFO("resumed: exit " << r.exit_code << "\nstderr: " << r.err);
    CHECK(r.exit_code == 0);
    // 18 or 19: the pair rank 2 was serving when it went may have finished.
    size_t kept = 0;
    for (const json &run : first["runs"])
        kept += run["status"] == "ok";
    CHECK(r.err.find("--resume " + out + ": " + std::to_string(kept) + " of 24 pairs kept, " +
                     std::to_string(24 - kept) + " to run") != std::string::npos);
    const json doc = json::parse(read_file(again));
    REQUIRE(doc["runs"].size() == 24);
    std::map<std::tuple<std::string, int, int>, json> before;
    for (const json &run : first["runs"])
        before[{run["name"], run["pair"]["client"], run["pair"]["server"]}] = run;
    for (const json &run : doc["runs"]) {
        const json &old = before[{run["name"], run["pair"]["client"], run["pair"]["server"]}];
        INFO(run["name"] << " " << run["pair"]["client"] << " -> " << run["pair"]["server"]);
        CHECK(run["status"] == "ok");
        // A kept pair is the earlier one, measured then; the others are new.
        if (old["status"] == "ok") CHECK(run["rows"] == old["rows"]);
    }
}

TEST_CASE("mpirun --enable-recovery: rank 0 killed: every rank ends at once, naming it") {
    // Long rounds: the job is still on when the first run is in -o.
    const std::string toml = paced_scenario("root.toml", 100000);
    const std::string pids = dir() + "/pids-root", out = dir() + "/root.json";
    const pid_t job = start_matrix_job(toml, out, pids, "root", {"--enable-recovery"});
    REQUIRE(wait_for_err("root", "run 2/2"));
    auto latency_in_file = [&] {
        int n = 0;
        try {
            const json doc = json::parse(read_file(out)); // kept: the loop reads into it
            for (const json &run : doc["runs"])
                n += run["name"] == "latency" && run["status"] == "ok";
        } catch (const json::exception &) {
        }
        return n;
    };
    for (int i = 0; i < 600 && latency_in_file() < 12; ++i)
        usleep(100000);
    const pid_t victim = rank_pid(pids, 0);
    REQUIRE(victim > 0);
    const auto killed = std::chrono::steady_clock::now();
    REQUIRE(kill(victim, SIGKILL) == 0);
    const int code = wait_process(job, 120);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count();
    const std::string err = read_file(dir() + "/root.err");
    INFO("exit " << code << ", " << took << " s after the kill; stderr: " << err);
    CHECK(code != -1);
    CHECK(took < 30); // not a round's wait (300 s + 35)
    for (int rank : {1, 2, 3})
        CHECK(err.find("rank " + std::to_string(rank) + ": lost the link to rank 0 (") !=
              std::string::npos);
    // What rank 0 wrote before it died is intact: the first run whole, the
    // file marked incomplete.
    CHECK(latency_in_file() == 12);
    const json doc = json::parse(read_file(out));
    REQUIRE(doc["context"]["notes"].size() == 1);
    CHECK(doc["context"]["notes"][0].get<std::string>().find("incomplete") != std::string::npos);
    sleep(1);
    CHECK_FALSE(process_running_with(toml));
}

TEST_CASE("mpirun --resume: a file of another job shape, or no launcher, is refused (exit 2)") {
    const std::string toml = scenario("resume-bad.toml", "all-pairs", 20);
    const std::string out = dir() + "/three.json";
    run_matrix(3, toml, out);
    const ProcessResult r = run_process(
        mpirun_np(2, {cmdbench_exe(), "run", toml, "-q", "--resume", out}), 120, kRootOk);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--resume " + out + ": a job of 3 ranks; this one has 2") !=
          std::string::npos);
    const ProcessResult single = run_process({cmdbench_exe(), "run", toml, "--resume", out}, 60);
    CHECK(single.exit_code == 2);
    CHECK(single.err.find("--resume works under a launcher") != std::string::npos);
    const ProcessResult missing = run_process(
        mpirun_np(2, {cmdbench_exe(), "run", toml, "-q", "--resume", dir() + "/nothing.json"}), 120,
        kRootOk);
    CHECK(missing.exit_code == 2);
    CHECK(missing.err.find("nothing.json: cannot read") != std::string::npos);
}

TEST_CASE("mpirun --enable-recovery: a stopped rank is named after dead_after, the job ends") {
    const std::string toml = paced_scenario("stop.toml");
    const std::string pids = dir() + "/pids-stop", out = dir() + "/stop.json";
    const pid_t job = start_matrix_job(toml, out, pids, "stop", {"--enable-recovery"});
    REQUIRE(wait_for_err("stop", "run 2/2"));
    usleep(300000);
    const pid_t victim = rank_pid(pids, 2);
    REQUIRE(victim > 0);
    const auto stopped = std::chrono::steady_clock::now();
    REQUIRE(kill(victim, SIGSTOP) == 0);
    REQUIRE(wait_for_err("stop", "is gone"));
    const double named =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - stopped).count();
    const int code = wait_process(job, 240);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - stopped).count();
    kill(victim, SIGKILL); // if the job left it behind
    const std::string err = read_file(dir() + "/stop.err");
    INFO("exit " << code << ", named " << named << " s and ended " << took
                 << " s after the stop; stderr: " << err);
    CHECK(named < 12); // dead_after = 2, plus a loaded machine's slack
    CHECK(code != -1);
    CHECK(took < 150); // rank 0 ends the job: the stopped rank would hold it
    CHECK(err.find("no word from it for 2 s (stopped or stuck") != std::string::npos);
    check_went_on(json::parse(read_file(out)), "no word from it for 2 s");
}

TEST_CASE("mpirun -np 2: cpus per side places each pair's client and server") {
    const std::string toml =
        write("placed.toml", "[matrix]\npattern = \"all-pairs\"\naddress = \"127.0.0.1\"\n\n"
                             "[[run]]\nname = \"latency\"\ntest = \"pingpong\"\n"
                             "transport = \"tcp\"\nsizes = [64]\niterations = 50\n"
                             "cpus = { client = \"0\", server = \"1\" }\n");
    const json doc = run_matrix(2, toml, dir() + "/placed.json");
    REQUIRE(doc["runs"].size() == 2);
    // A pair's path ends are indexes into the ends the document lists once.
    const json &ends = doc["matrix"]["shared"]["paths"];
    for (const json &r : doc["runs"]) {
        INFO(r["path"].dump());
        const json &client = ends.at(r["path"]["client"].get<size_t>());
        const json &server = ends.at(r["path"]["server"].get<size_t>());
        CHECK(client["affinity"]["cpus_allowed"] == "0");
        CHECK(client["affinity"]["cpus_seen"] == "0");
        CHECK(server["affinity"]["cpus_allowed"] == "1");
        CHECK(server["affinity"]["cpus_seen"] == "1");
    }
}

TEST_CASE("mpirun --timeout: the runs finished before the launcher ends the job are on stdout") {
    // mpirun drops what the ranks print once its time limit has begun to
    // end the job: a run is printed the moment its last pair is done.
    const std::string toml =
        write("limit.toml", "[matrix]\naddress = \"127.0.0.1\"\n\n[defaults]\ntransport = "
                            "\"tcp\"\ntimeout = 60\n\n[[run]]\nname = \"quick\"\n"
                            "test = \"pingpong\"\nsizes = [64]\niterations = 50\n\n[[run]]\n"
                            "name = \"endless\"\ntest = \"pingpong\"\nsizes = [64]\n"
                            "iterations = 100000000\n");
    std::vector<std::string> cmd = mpirun_np(3, {cmdbench_exe(), "run", toml});
    cmd.insert(cmd.begin() + 1, {"--timeout", "10"});
    const ProcessResult r = run_process(cmd, 90, kRootOk);
    INFO("exit " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.out.find("quick (pingpong/tcp): latency_p50 (us) of row 64_lat; 6 of 6 pairs") !=
          std::string::npos);
    CHECK(r.out.find("endless (") == std::string::npos);
}

TEST_CASE("mpirun -np 2: the matrix table shows a run's name with its controls made visible") {
    const std::string toml =
        write("hostile.toml", "[matrix]\npattern = \"all-pairs\"\naddress = \"127.0.0.1\"\n\n"
                              "[[run]]\nname = \"A\\u001b]0;owned\\u0007\\u001b[2JB\"\n"
                              "test = \"pingpong\"\ntransport = \"tcp\"\nsizes = [64]\n"
                              "iterations = 50\n");
    const ProcessResult r = run_process(mpirun_np(2, {cmdbench_exe(), "run", toml}), 120, kRootOk);
    INFO("exit " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("A\\x1b]0;owned\\x07\\x1b[2JB") != std::string::npos);
    CHECK(r.out.find('\x1b') == std::string::npos);
    CHECK(r.out.find('\x07') == std::string::npos);
}

TEST_CASE("mpirun: [matrix] interface and device, looked up on each rank's node") {
    auto toml = [](const std::string &name, const std::string &where) {
        return write(name, "[matrix]\n" + where +
                               "\n\n[[run]]\nname = \"latency\"\ntest = \"pingpong\"\n"
                               "transport = \"tcp\"\nsizes = [64]\niterations = 20\n"
                               "transfer_count = 1\ntimeout = 30\n");
    };
    const std::string out = dir() + "/lo.json";
    const json doc = run_matrix(2, toml("lo.toml", "interface = \"lo\""), out);
    REQUIRE(doc["matrix"]["ranks"].size() == 2);
    for (const json &r : doc["matrix"]["ranks"])
        CHECK(r["address"].get<std::string>().rfind("127.0.0.1:", 0) == 0);
    for (const json &run : doc["runs"])
        CHECK(run["status"] == "ok");
    // Not there: exit 2 before any run, naming the rank and its node.
    for (const std::string &where :
         {std::string("interface = \"nosuch0\""), std::string("device = \"nosuchdev0\"")}) {
        const ProcessResult r = run_process(
            mpirun_np(2, {cmdbench_exe(), "run", toml("missing.toml", where), "-q"}), 120, kRootOk);
        INFO(where << ": exit " << r.exit_code << "\nstderr: " << r.err);
        CHECK(r.exit_code == 2);
        const std::string what = where[0] == 'i'
                                     ? "[matrix] interface: no network interface 'nosuch0' on "
                                       "this node (it has "
                                     : "[matrix] device: no RDMA device 'nosuchdev0' on this node";
        CHECK(r.err.find("cmdbench: matrix: rank 0 (") != std::string::npos);
        CHECK(r.err.find("cmdbench: matrix: rank 1 (") != std::string::npos);
        CHECK(r.err.find("): " + what) != std::string::npos);
        CHECK(r.out.find("matrix:") == std::string::npos);
    }
}

TEST_CASE("mpirun: a run that lists its rails is refused, with rails = \"all\" named instead") {
    // A list names one machine's addresses; each rank needs its own devices.
    const std::string toml = write(
        "listed-rails.toml",
        "[[run]]\nname = \"bw\"\ntest = \"throughput\"\ntransport = \"tcp\"\n"
        "sizes = [65536]\nduration = 0.2\n"
        "rails = [{label = \"a\", buffer_size = 262144}, {label = \"b\", buffer_size = 524288}]\n");
    const ProcessResult r =
        run_process(mpirun_np(2, {cmdbench_exe(), "run", toml, "-q"}), 120, kRootOk);
    INFO("exit " << r.exit_code << "\nstderr: " << r.err);
    CHECK(r.exit_code == 2);
    // At the key: file, line 7, column 1.
    CHECK(r.err.find(toml + ":7:1: run 'bw' lists its rails") != std::string::npos);
    CHECK(r.err.find("use rails = \"all\"") != std::string::npos);
    CHECK(r.out.find("matrix:") == std::string::npos);
}

TEST_CASE("mpirun: a run's server is refused at its key, or at the --set that gave it") {
    // Under a launcher the ranks serve: a server named in the file (line 5)
    // or by --set has no place.
    const std::string toml = write("server.toml", "[[run]]\nname = \"lat\"\ntest = \"pingpong\"\n"
                                                  "transport = \"tcp\"\nserver = \"127.0.0.1\"\n");
    const std::string plain =
        write("plain.toml", "[[run]]\nname = \"lat\"\ntest = \"pingpong\"\ntransport = \"tcp\"\n");
    const std::pair<std::vector<std::string>, std::string> cases[] = {
        {{toml}, toml + ":5:1: run 'lat' names server '127.0.0.1'"},
        {{plain, "--set", "server=127.0.0.1"}, "--set server=127.0.0.1: run 'lat' names server"}};
    for (const auto &[args, want] : cases) {
        std::vector<std::string> argv = {cmdbench_exe(), "run"};
        argv.insert(argv.end(), args.begin(), args.end());
        argv.push_back("-q");
        const ProcessResult r = run_process(mpirun_np(2, argv), 120, kRootOk);
        INFO("exit " << r.exit_code << "\nstderr: " << r.err);
        CHECK(r.exit_code == 2);
        CHECK(r.err.find(want) != std::string::npos);
        CHECK(r.out.find("matrix:") == std::string::npos);
    }
}

TEST_CASE("mpirun: a run with pairs is refused at its key, naming file, line and column") {
    // Under a launcher every pair of ranks is a pair already; `pairs` on
    // line 7 would want servers of its own on the partner.
    const std::string toml = write("pairs.toml", "[matrix]\naddress = \"127.0.0.1\"\n\n"
                                                 "[[run]]\nname = \"lat\"\ntest = \"pingpong\"\n"
                                                 "pairs = 2\ntransport = \"tcp\"\n");
    const ProcessResult r =
        run_process(mpirun_np(2, {cmdbench_exe(), "run", toml, "-q"}), 120, kRootOk);
    INFO("exit " << r.exit_code << "\nstderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("): " + toml +
                     ":7:1: run 'lat' sets 'pairs', which runs without a "
                     "launcher only") != std::string::npos);
    CHECK(r.out.find("matrix:") == std::string::npos);
}

TEST_CASE("no launcher: today's single-pair run, with a note about [matrix]") {
    const std::string out = dir() + "/single.json";
    const ProcessResult r =
        run_process({cmdbench_exe(), "run", scenario("single.toml", "ring"), "-o", out, "-q"}, 120);
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.find("[matrix] is ignored without a launcher") != std::string::npos);
    const json doc = json::parse(read_file(out));
    CHECK_FALSE(doc.contains("matrix"));
    REQUIRE(doc["runs"].size() == 2);
    CHECK_FALSE(doc["runs"][0].contains("pair"));
    CHECK(r.out.find("matrix:") == std::string::npos);
}

TEST_CASE("mpirun -np 3: a problem every rank has is said once by rank 0, naming the ranks") {
    const std::string toml = write("unknown-test.toml", "[matrix]\naddress = \"127.0.0.1\"\n\n"
                                                        "[[run]]\nname = \"x\"\ntest = "
                                                        "\"no-such-test\"\n");
    const ProcessResult r =
        run_process(mpirun_np(3, {cmdbench_exe(), "run", toml, "-q"}), 120, kRootOk);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 2);
    const std::string said = "cmdbench: ranks 0-2 (node ";
    CHECK(r.err.find(said) != std::string::npos);
    CHECK(r.err.find("unknown test 'no-such-test'") != std::string::npos);
    CHECK(r.err.find("unknown test") == r.err.rfind("unknown test"));
    CHECK(r.seconds < wall_bound(60));
}

TEST_CASE("mpirun -np 3: a bad option is said once, by the first process") {
    const std::string toml = scenario("bad-pattern.toml", "ring");
    const ProcessResult r = run_process(
        mpirun_np(3, {cmdbench_exe(), "run", toml, "--pattern", "bogus", "-q"}), 60, kRootOk);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 2);
    const std::string said = "cmdbench: --pattern must be one of";
    CHECK(r.err.find(said) != std::string::npos);
    CHECK(r.err.find(said) == r.err.rfind(said));
}

TEST_CASE("mpirun -np 2 without RDMA: the servers' errors name rank and node, only with -v") {
    const std::string toml = write("verbs.toml", "[matrix]\naddress = \"127.0.0.1\"\n\n[[run]]\n"
                                                 "name = \"bw\"\ntest = \"verbs-bw\"\n");
    const auto run = [&](std::vector<std::string> extra) {
        std::vector<std::string> cmd = {cmdbench_exe(), "run", toml, "-q", "--allow-skip"};
        cmd.insert(cmd.end(), extra.begin(), extra.end());
        return run_process(mpirun_np(2, cmd), 120, kRootOk);
    };
    const ProcessResult quiet = run({});
    INFO("stdout: " << quiet.out << "\nstderr: " << quiet.err);
    REQUIRE(quiet.exit_code == 0);
    if (quiet.out.find("skipped: needs an RDMA device") == std::string::npos) {
        WARN("this host has an RDMA device: nothing to check");
        return;
    }
    // The pairs' failures are in rank 0's table, naming the pairs: the
    // servers do not say them again, a line per pair.
    CHECK(quiet.out.find("  0 -> 1: skipped: needs an RDMA device") != std::string::npos);
    CHECK(quiet.err.find("cmdbench serve") == std::string::npos);
    const ProcessResult verbose = run({"-v"});
    CHECK(verbose.exit_code == 0);
    CHECK(verbose.err.find("cmdbench serve of rank 0 (node ") != std::string::npos);
    CHECK(verbose.err.find("cmdbench serve of rank 1 (node ") != std::string::npos);
}

TEST_CASE("several processes without PMIx: a [matrix] scenario is refused with the fix") {
    const std::string toml = scenario("no-pmix.toml", "ring"), out = dir() + "/no-pmix.json";
    // What srun without --mpi=pmix gives its tasks: the first says why, the
    // others exit as quietly; a plain scenario still runs as one pair.
    for (const std::string rank : {"0", "1"}) {
        const ProcessResult r =
            run_process({"/usr/bin/env", "SLURM_STEP_NUM_TASKS=2", "SLURM_PROCID=" + rank,
                         cmdbench_exe(), "run", toml, "-o", out, "-q"},
                        60);
        INFO("rank " << rank << " stderr: " << r.err);
        CHECK(r.exit_code == 2);
        CHECK((r.err.find("srun --mpi=pmix") != std::string::npos) == (rank == "0"));
        CHECK(access(out.c_str(), F_OK) != 0);
    }
    const ProcessResult hydra = run_process(
        {"/usr/bin/env", "PMI_SIZE=3", "PMI_RANK=0", cmdbench_exe(), "run", toml, "-o", out, "-q"},
        60);
    CHECK(hydra.exit_code == 2);
    CHECK(hydra.err.find("its 3 processes were not started by a PMIx launcher") !=
          std::string::npos);
}

TEST_CASE("mpirun -np 1 --bind-to core: client and local server on one CPU are warned about") {
    // One short latency run: bound, each round trip waits for a time slice.
    const std::string toml =
        write("bound.toml", "[[run]]\nname = \"latency\"\ntest = \"pingpong\"\n"
                            "transport = \"tcp\"\nsizes = [64]\niterations = 20\n"
                            "transfer_count = 1\ntimeout = 30\n");
    auto run = [&](const std::string &binding, const std::string &out) {
        const ProcessResult r = run_process(
            mpirun_np(1, {"--bind-to", binding, cmdbench_exe(), "run", toml, "-o", out, "-q"}), 120,
            kRootOk);
        INFO("exit " << r.exit_code << "\nstderr: " << r.err);
        REQUIRE(r.exit_code == 0);
        return r;
    };
    const std::string bound = dir() + "/bound.json", free = dir() + "/free.json";
    const ProcessResult r = run("core", bound);
    CHECK(r.err.find("cmdbench: warning: this process may run on CPU ") != std::string::npos);
    CHECK(r.err.find("client and server share one CPU") != std::string::npos);
    CHECK(r.err.find("pass --bind-to none") != std::string::npos);
    const json doc = json::parse(read_file(bound));
    REQUIRE(doc["context"]["notes"].size() == 1);
    CHECK(doc["context"]["notes"][0].get<std::string>().find("share one CPU") != std::string::npos);
    const ProcessResult unbound = run("none", free);
    CHECK(unbound.err.find("warning") == std::string::npos);
    CHECK_FALSE(json::parse(read_file(free))["context"].contains("notes"));
}

// What this checks is the matrix at 64 ranks (wire-up, 126 rounds, every
// result back at rank 0), not the data path: the pairs use blocking sockets.
// With rstream's default spin-polling, 32 busy-waiting pairs on a 2-CPU
// machine make every round trip wait for a time slice (297 s instead of 24 s).
TEST_CASE("mpirun -np 64: all-pairs matrix of 4032 pairs, all filled", "[scale]") {
    const std::string out = dir() + "/scale.json";
    const std::string toml = write(
        "scale.toml", "[matrix]\naddress = \"127.0.0.1\"\n\n[[run]]\nname = \"latency\"\n"
                      "test = \"pingpong\"\ntransport = \"tcp\"\nsizes = [64]\niterations = 20\n"
                      "transfer_count = 1\nblocking = true\ntimeout = 120\n");
    const ProcessResult r = run_process(
        mpirun_np(64, {cmdbench_exe(), "run", toml, "-o", out, "-q", "--format", "json"}), 1700,
        kRootOk);
    INFO("exit " << r.exit_code << "\nstderr: " << r.err.substr(0, 4000));
    REQUIRE(r.exit_code == 0);
    const json doc = json::parse(read_file(out));
    REQUIRE(doc["runs"].size() == 4032);
    std::set<std::pair<int, int>> pairs;
    for (const json &run : doc["runs"]) {
        CHECK(run["status"] == "ok");
        CHECK(run["rows"].size() == 1);
        pairs.insert({run["pair"]["client"].get<int>(), run["pair"]["server"].get<int>()});
    }
    CHECK(pairs.size() == 4032);
    CHECK(doc["matrix"]["rounds"] == 126);
}

TEST_CASE("mpirun -np 2: a run with a background, each pair alone and under load") {
    const std::string out = dir() + "/load.json";
    const std::string toml = write("load.toml", R"([matrix]
pattern = "all-pairs"
address = "127.0.0.1"

[[run]]
name = "lat"
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 200
background = { test = "throughput", transport = "tcp", flows = 2, params = { sizes = [65536], duration = 0.2, run_infinitely = true } }
)");
    const ProcessResult r =
        run_process(mpirun_np(2, {cmdbench_exe(), "run", toml, "-o", out, "-q"}), 240, kRootOk);
    INFO("exit " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    const json doc = json::parse(read_file(out));
    CHECK(pairs_in(doc, "lat") == std::set<std::pair<int, int>>{{0, 1}, {1, 0}});
    CHECK(pairs_in(doc, "lat under load") == std::set<std::pair<int, int>>{{0, 1}, {1, 0}});
    for (const json &run : doc["runs"]) {
        INFO(run.dump());
        CHECK(run["status"] == "ok");
        if (run["name"] != "lat under load") {
            CHECK_FALSE(run.contains("background"));
            continue;
        }
        CHECK(run["variant"] == "tcp under load");
        const json &bg = run["background"];
        CHECK(bg["flows"] == 2);
        CHECK(bg["notes"].empty());
        REQUIRE(bg["Gb/sec"].is_number());
        CHECK(bg["Gb/sec"].get<double>() > 0);
        // The matrix table says it per pair, as a single run's table does.
        char moved[64];
        std::snprintf(moved, sizeof moved, "%.3f", bg["Gb/sec"].get<double>());
        CHECK(r.out.find("  " + std::to_string(run["pair"]["client"].get<int>()) + " -> " +
                         std::to_string(run["pair"]["server"].get<int>()) +
                         ": under load: 2 flows of throughput over tcp moved " + moved +
                         " Gb/s (the sum over flows) while this run was measured\n") !=
              std::string::npos);
    }
}
