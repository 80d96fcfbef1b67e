// End to end: `expect` in matrix mode under mpirun (docs/matrix.md,
// "Verdicts"): a bound no link meets fails every link (exit 3, the summary
// first in the table, the worst links on stderr, JSON and HTML); a bound
// every link meets passes (exit 0); an interrupted job's pairs not run are
// NOT RUN, not FAIL, and do not make the exit status 3. Loopback cannot make
// one link alone slow; the mixed cases are unit tests (test_matrix_verdicts).
#include "launchers.hpp"
#include "process.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
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

// A tiny TCP latency run and a bandwidth run, each with `expect`.
std::string scenario(const std::string &name, const std::string &latency_expect,
                     const std::string &bandwidth_expect) {
    return write(name, "[matrix]\naddress = \"127.0.0.1\"\n\n[defaults]\ntransport = \"tcp\"\n"
                       "timeout = 60\nblocking = true\n\n[[run]]\nname = \"latency\"\n"
                       "test = \"pingpong\"\nsizes = [64]\niterations = 200\ntransfer_count = 1\n"
                       "expect = " +
                           latency_expect +
                           "\n\n[[run]]\nname = \"bandwidth\"\ntest = \"pingpong\"\n"
                           "sizes = [4096]\niterations = 5\ntransfer_count = 10\nexpect = " +
                           bandwidth_expect + "\n");
}

} // namespace

TEST_CASE("mpirun -np 3: a latency bound no link meets: every link FAIL, exit 3, summary first") {
    const std::string out = dir() + "/fail.json", html = dir() + "/fail.html";
    // 1 ns one-way: no link meets it; every link moves more than 1 Mb/s.
    const std::string toml = scenario("fail.toml", "{ latency_p99 = { max = 0.001 } }",
                                      "{ bandwidth = { min = 0.001 } }");
    const ProcessResult r =
        run_process(mpirun_np(3, {cmdbench_exe(), "run", toml, "-o", out, "--report", html, "-q"}),
                    240, kRootOk);
    INFO("exit " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 3);
    // The ranks, each run's matrices as the run ended, then, last on the
    // screen, the links by outcome, the nodes and the worst links.
    CHECK(r.out.find("matrix: all-pairs, 3 ranks, 6 rounds per run\n  rank 0: ") == 0);
    const size_t summary = r.out.find("\nverdicts: 6 of 6 links FAIL (6 of 12 expectations "
                                      "failed)\nper node, worst first:\n");
    CHECK(summary != std::string::npos);
    CHECK(summary > r.out.rfind("client rank (row) -> server rank (column)"));
    const size_t first_link =
        r.out.find("links not passing, worst first:\n  FAIL    latency rank ");
    CHECK(first_link != std::string::npos);
    CHECK(first_link > summary);
    CHECK(r.out.find(": latency_p99 ") != std::string::npos);
    CHECK(r.out.find(" us one-way (round trip ") != std::string::npos);
    CHECK(r.out.find("; latency one-way (half the round trip)") != std::string::npos);
    // Exit 3 names the worst links.
    CHECK(r.err.find("cmdbench: 6 of 6 links FAIL (6 of 12 expectations failed); worst: latency "
                     "rank ") != std::string::npos);

    const json doc = json::parse(read_file(out));
    CHECK(doc["expectations"]["failed"] == 6);
    CHECK(doc["expectations"]["passed"] == 6);
    int judged_pairs = 0;
    for (const json &v : doc["expectations"]["verdicts"]) {
        CHECK(v["pair"].is_object());
        CHECK(v["verdict"] == (v["run"] == "latency" ? "fail" : "pass"));
        ++judged_pairs;
    }
    CHECK(judged_pairs == 12);
    const json &mv = doc["matrix_verdicts"];
    CHECK(mv["links"]["total"] == 6);
    CHECK(mv["links"]["fail"] == 6);
    CHECK(mv["nodes"].size() == 1); // every rank on this host
    CHECK(mv["nodes"][0]["fail"] == 6);
    CHECK(mv["problem_links"].size() == 6);
    const std::string page = read_file(html);
    CHECK(page.find("id=\"matrix-verdict-summary\">6 of 6 links FAIL") != std::string::npos);
}

TEST_CASE("mpirun -np 3: bounds every link meets: every link PASS, exit 0") {
    const std::string out = dir() + "/pass.json";
    const std::string toml = scenario("pass.toml", "{ latency_p50 = { max = 1000000 } }",
                                      "{ bandwidth = { min = 0.001 } }");
    const ProcessResult r =
        run_process(mpirun_np(3, {cmdbench_exe(), "run", toml, "-o", out, "-q"}), 240, kRootOk);
    INFO("exit " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("verdicts: 0 of 6 links FAIL (0 of 12 expectations failed)\n") !=
          std::string::npos);
    CHECK(r.out.find("links not passing") == std::string::npos);
    const json doc = json::parse(read_file(out));
    CHECK(doc["expectations"]["all_held"] == true);
    CHECK(doc["matrix_verdicts"]["links"]["pass"] == 6);
}

TEST_CASE("mpirun interrupted: the pairs not run are NOT RUN, not FAIL, no exit 3") {
    const std::string out = dir() + "/int.json", toml = dir() + "/int.toml";
    std::ofstream(toml) << "[matrix]\naddress = \"127.0.0.1\"\n\n[defaults]\ntransport = \"tcp\"\n"
                           "test = \"pingpong\"\nsizes = [64]\ntransfer_count = 1\ntimeout = 120\n"
                           "expect = { latency_p50 = { max = 1000000 } }\n\n[[run]]\n"
                           "name = \"short\"\niterations = 50\n\n[[run]]\nname = \"endless\"\n"
                           "iterations = 5000000\n";
    // Each rank's own exit status, which mpirun's (1 once interrupted) hides.
    const std::string statuses = dir() + "/statuses", wrapper = dir() + "/rank.sh";
    std::ofstream(wrapper) << "trap : TERM\n\"" << cmdbench_exe() << "\" run " << toml << " -o "
                           << out << " &\npid=$!\n"
                           << "while kill -0 $pid 2>/dev/null; do wait $pid; rc=$?; done\n"
                           << "echo \"$rc\" >> " << statuses << "\n";
    std::vector<std::string> argv = {"/usr/bin/env"};
    argv.insert(argv.end(), kRootOk.begin(), kRootOk.end());
    for (const std::string &a :
         mpirun_np(3, {"--mca", "odls_base_sigkill_timeout", "10", "/bin/bash", wrapper}))
        argv.push_back(a);
    const std::string err = dir() + "/int.err";
    const pid_t job = start_process(argv, dir() + "/int.out", err);
    for (int i = 0; i < 1200 && read_file(err).find("run 2/2") == std::string::npos; ++i)
        usleep(50000);
    REQUIRE(read_file(err).find("run 2/2") != std::string::npos);
    sleep(1);
    REQUIRE(kill(job, SIGINT) == 0);
    const int code = wait_process(job, 60);
    INFO("exit " << code << "\nstdout: " << read_file(dir() + "/int.out")
                 << "\nstderr: " << read_file(err));
    CHECK(code != -1);
    for (int i = 0; i < 50 && read_file(statuses).size() < 12; ++i)
        usleep(100000);
    CHECK(read_file(statuses) == "130\n130\n130\n");
    const json doc = json::parse(read_file(out));
    int pass = 0, not_run = 0, fail = 0;
    for (const json &v : doc["expectations"]["verdicts"]) {
        if (v["verdict"] == "pass") ++pass;
        if (v["verdict"] == "fail") ++fail;
        if (v["verdict"] == "not_run") {
            ++not_run;
            CHECK(v["run"] == "endless");
            // "not run: interrupted"; the pair in flight: "run interrupted: ..."
            CHECK(v["reason"].get<std::string>().find("interrupted") != std::string::npos);
            CHECK(v["text"].get<std::string>().find("interrupted") != std::string::npos);
        }
    }
    CHECK(pass == 6);    // the short run's pairs
    CHECK(fail == 0);    // a pair not run is no failed link
    CHECK(not_run >= 5); // the pair in flight may end as failed: UNKNOWN
    CHECK(doc["matrix_verdicts"]["links"]["fail"] == 0);
    CHECK(doc["matrix_verdicts"]["links"]["not_run"].get<int>() >= 5);
}
