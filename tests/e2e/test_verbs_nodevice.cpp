// End to end for plugin "verbs" on a machine that may have no RDMA device:
// the real binary and its local server run verbs-lat and verbs-bw; without a
// device both are skipped with the "needs an RDMA device:" reason, with one
// they are not skipped. Bad parameters are refused: single keys by the host
// before anything runs (exit 2, key and range), combinations by the plugin
// before it looks for a device (the run fails naming both keys). The lab's
// check 57-verbs-local runs the cases tagged [device] with rxe present.
#include "process.hpp"

#include <catch2/catch.hpp>
#include <dirent.h>
#include <fstream>
#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

ProcessResult run_scenario(const std::string &text, std::vector<std::string> extra = {}) {
    const std::string path = temp_dir() + "/verbs-scenario.toml";
    std::ofstream(path) << text;
    std::vector<std::string> argv = {cmdbench_exe(), "run", path, "--format", "json"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_process(argv, 180);
}

// What the plugin itself looks at: rdma-core lists the devices of this class.
bool machine_has_rdma_device() {
    DIR *dir = opendir("/sys/class/infiniband");
    if (!dir) return false;
    bool found = false;
    while (dirent *e = readdir(dir))
        if (e->d_name[0] != '.') found = true;
    closedir(dir);
    return found;
}

json first_run(const ProcessResult &r) {
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    return json::parse(r.out).at("runs").at(0);
}

void check_device_branch(const std::string &scenario) {
    auto r = run_scenario(scenario);
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    const json run = first_run(r);
    if (machine_has_rdma_device()) {
        CHECK(run.at("status") != "skipped");
        return;
    }
    CHECK(r.exit_code == 1);
    CHECK(run.at("status") == "skipped");
    const std::string error = run.at("error").get<std::string>();
    CHECK(error.rfind("needs an RDMA device: ", 0) == 0);
    CHECK_THAT(error, Catch::Contains("rdma_rxe") && Catch::Contains("tools/rdma-lab"));
    CHECK(run.at("rows").empty());
    // --allow-skip accepts exactly this outcome.
    CHECK(run_scenario(scenario, {"--allow-skip"}).exit_code == 0);
}

} // namespace

TEST_CASE("verbs-lat: skipped without an RDMA device, not skipped with one", "[device]") {
    check_device_branch("[[run]]\ntest = \"verbs-lat\"\nsizes = [64]\niterations = 10\n"
                        "timeout = 60\n");
}

TEST_CASE("verbs-bw: skipped without an RDMA device, not skipped with one", "[device]") {
    check_device_branch("[[run]]\ntest = \"verbs-bw\"\nop = \"write\"\nsizes = [65536]\n"
                        "iterations = 10\nqps = 2\nthreads = 2\ntimeout = 60\n");
}

TEST_CASE("verbs: one bad key is refused before anything runs, with its range") {
    struct Case {
        const char *scenario, *key, *range;
    } cases[] = {
        {"test = \"verbs-lat\"\nsizes = [64, 0]", "sizes", "[1, 1073741824]"},
        {"test = \"verbs-bw\"\ninline_size = 5000", "inline_size", "[-1, 4096]"},
        {"test = \"verbs-bw\"\ntx_depth = 0", "tx_depth", "[1, 16384]"},
        {"test = \"verbs-bw\"\ncq_mod = -1", "cq_mod", "[0, 16384]"},
        {"test = \"verbs-lat\"\nqps = 0", "qps", "[1, 1024]"},
        {"test = \"verbs-lat\"\nop = \"atomic\"", "op", "send|write|read"},
        {"test = \"verbs-bw\"\nmode = \"spin\"", "mode", "poll|event"},
        {"test = \"verbs-lat\"\nqp_type = \"xrc\"", "qp_type", "rc|uc|ud"},
        {"test = \"verbs-lat\"\nconnect = \"ib\"", "connect", "rdma_cm|exchange"},
        {"test = \"verbs-bw\"\nib_port = 0", "ib_port", "[1, 255]"},
        {"test = \"verbs-bw\"\ngid_index = 256", "gid_index", "[-1, 255]"},
        {"test = \"verbs-lat\"\nmtu = 8192", "mtu", "[0, 4096]"},
        {"test = \"verbs-lat\"\nsl = 16", "sl", "[0, 15]"},
        {"test = \"verbs-bw\"\ntraffic_class = 256", "traffic_class", "[0, 255]"},
        {"test = \"verbs-lat\"\niterations = 0", "iterations", "[1, 1000000000]"},
    };
    for (const Case &c : cases) {
        auto r = run_scenario(std::string("[[run]]\n") + c.scenario + "\n");
        INFO(c.scenario << "\nstderr: " << r.err);
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::Contains(c.key) && Catch::Contains(c.range));
    }
}

TEST_CASE("verbs: bad combinations fail the run naming both keys, device or not") {
    struct Case {
        const char *scenario, *expect1, *expect2;
    } cases[] = {
        {"test = \"verbs-bw\"\ntx_depth = 64\ncq_mod = 100", "cq_mod = 100",
         "[1, tx_depth] (tx_depth = 64)"},
        {"test = \"verbs-lat\"\nqps = 2\nthreads = 3", "threads = 3", "[1, qps] (qps = 2)"},
        {"test = \"verbs-lat\"\nop = \"read\"\ninline_size = 64", "inline_size = 64",
         "op = \"read\""},
        {"test = \"verbs-lat\"\nqp_type = \"ud\"\nop = \"write\"",
         "qp_type = \"ud\" needs op = \"send\"", "op = \"write\""},
        {"test = \"verbs-bw\"\nqp_type = \"ud\"\nop = \"read\"",
         "qp_type = \"ud\" needs op = \"send\"", "op = \"read\""},
        {"test = \"verbs-bw\"\nqp_type = \"ud\"\nbidirectional = true", "bidirectional = true",
         "qp_type = \"ud\""},
        // Atomics move an 8-byte operand: any other size, inline data or both
        // directions at once is refused.
        {"test = \"verbs-lat\"\nop = \"fetch_add\"\nsizes = [16]", "sizes = [16]",
         "sizes must be [8]"},
        {"test = \"verbs-bw\"\nop = \"cmp_swap\"\nsizes = [8, 64]", "sizes = [8, 64]",
         "op = \"cmp_swap\""},
        {"test = \"verbs-lat\"\nop = \"cmp_swap\"\ninline_size = 8", "inline_size = 8",
         "op = \"cmp_swap\""},
        {"test = \"verbs-bw\"\nop = \"fetch_add\"\nbidirectional = true", "bidirectional = true",
         "op = \"fetch_add\""},
        // What rdma_cm cannot honour needs connect = "exchange".
        {"test = \"verbs-lat\"\nqp_type = \"uc\"", "qp_type = \"uc\"",
         "needs connect = \"exchange\""},
        {"test = \"verbs-bw\"\nmtu = 1024", "mtu = 1024", "needs connect = \"exchange\""},
        {"test = \"verbs-lat\"\nconnect = \"exchange\"\nmtu = 1000", "mtu = 1000",
         "256, 512, 1024, 2048, 4096"},
        {"test = \"verbs-lat\"\nconnect = \"exchange\"\nqp_type = \"uc\"\nop = \"read\"",
         "qp_type = \"uc\"", "op = \"read\""},
        {"test = \"verbs-bw\"\ntx_depth = 16\npost_list = 32", "post_list = 32",
         "[1, tx_depth] (tx_depth = 16)"},
        {"test = \"verbs-bw\"\nrun_infinitely = true", "run_infinitely = true",
         "needs duration > 0"},
    };
    // One file, a run per case: each fails on its own and the next runs (one
    // process, not 16: under the lab's emulation each start takes seconds).
    std::string scenario;
    for (size_t i = 0; i < std::size(cases); ++i)
        scenario += "[[run]]\nname = \"c" + std::to_string(i) + "\"\n" + cases[i].scenario + "\n";
    const auto r = run_scenario(scenario);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 1);
    const json runs = json::parse(r.out).at("runs");
    REQUIRE(runs.size() == std::size(cases));
    for (size_t i = 0; i < std::size(cases); ++i) {
        INFO(cases[i].scenario);
        const json &run = runs.at(i);
        CHECK(run.at("name") == "c" + std::to_string(i));
        CHECK(run.at("status") == "failed");
        CHECK_THAT(run.at("error").get<std::string>(),
                   Catch::Contains(cases[i].expect1) && Catch::Contains(cases[i].expect2));
    }
}

TEST_CASE("verbs: cmdbench plugins lists both tests and their keys") {
    auto r = run_process({cmdbench_exe(), "plugins"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    for (const char *word :
         {"verbs-lat", "verbs-bw", "tx_depth", "cq_mod", "inline_size",
          "send|write|read|fetch_add|cmp_swap", "poll|event", "rc|uc|ud", "rdma_cm|exchange",
          "gid_index", "traffic_class", "post_list", "run_infinitely", "(perftest --source_ip)",
          "5000 write (ib_write_bw), 1000 send, read, fetch_add, cmp_swap"})
        CHECK_THAT(r.out, Catch::Contains(word));
    // perftest 4.5's -F is --CPU-freq, not an address.
    CHECK_THAT(r.out, !Catch::Contains("-F/"));
}

// Runs that name no variant are told apart by their op, so a WRITE run and a
// READ run are two columns of a comparison, not repeats of one; a variant
// the scenario names is kept as written.
TEST_CASE("verbs: the default variant carries the op") {
    auto r = run_scenario("[[run]]\ntest = \"verbs-lat\"\nop = \"write\"\n"
                          "[[run]]\ntest = \"verbs-lat\"\nop = \"read\"\n"
                          "[[run]]\ntest = \"verbs-bw\"\n"
                          "[[run]]\ntest = \"verbs-bw\"\nop = \"read\"\nvariant = \"mine\"\n",
                          {"--allow-skip"});
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    const json runs = json::parse(r.out).at("runs");
    REQUIRE(runs.size() == 4);
    CHECK(runs[0].at("variant") == "verbs-lat:write");
    CHECK(runs[1].at("variant") == "verbs-lat:read");
    CHECK(runs[2].at("variant") == "verbs-bw:send"); // the op's default
    CHECK(runs[3].at("variant") == "mine");
    for (const auto &run : runs)
        CHECK(run.at("group") == run.at("test"));
}
