// End to end for cmtime's steps: sock-steps (TCP, no RDMA) through the real
// binary and a real local server process on loopback, results checked
// through the JSON reporter; cm-steps' refusal without an RDMA device.
#include "process.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

using nlohmann::json;

namespace {

const char *const kSteps[] = {
    "full connect", "create id", "bind addr",   "resolve addr", "resolve route", "create qp",
    "init qp attr", "init qp",   "rtr qp attr", "rtr qp",       "rts qp attr",   "rts qp",
    "cm connect",   "establish", "disconnect",  "destroy id",   "destroy qp"};

std::string write_scenario(const std::string &text) {
    std::string path = temp_dir() + "/cmtime-scenario.toml";
    std::ofstream(path) << text;
    return path;
}

ProcessResult run_scenario(const std::string &text, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {cmdbench_exe(), "run", write_scenario(text), "--format",
                                     "json"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_process(argv, 180);
}

double value(const json &row, const char *key) {
    return row.at("metrics").at(key).at("value").get<double>();
}

std::map<std::string, json> rows_by_name(const json &run) {
    std::map<std::string, json> out;
    for (const auto &row : run.at("rows"))
        out[row.at("name").get<std::string>()] = row;
    return out;
}

// cmtime's arithmetic between the columns of one row.
void check_row_arithmetic(const json &row, double conns) {
    INFO(row.at("name"));
    CHECK(value(row, "avg/conn") == std::floor(value(row, "total(us)") / conns));
    CHECK(value(row, "us/conn") == std::floor(value(row, "sum(us)") / conns));
    CHECK(value(row, "min(us)") <= value(row, "max(us)"));
    CHECK(value(row, "conns") == conns);
}

void check_filled(const json &row, double conns) {
    INFO(row.at("name"));
    CHECK(value(row, "total(us)") > 0);
    CHECK(value(row, "sum(us)") >= value(row, "max(us)"));
    const json &h = row.at("histograms").at("conn");
    CHECK(h.at("count").get<double>() == conns);
    CHECK(h.at("p50").get<double>() <= h.at("p99").get<double>());
    CHECK(h.at("p99").get<double>() <= h.at("max").get<double>());
    CHECK(h.at("max").get<double>() > 0);
}

void check_empty(const json &row) {
    INFO(row.at("name"));
    for (const char *k : {"avg/conn", "total(us)", "us/conn", "sum(us)", "max(us)", "min(us)"})
        CHECK(value(row, k) == 0);
    CHECK(row.at("histograms").at("conn").at("count").get<double>() == 0);
}

} // namespace

TEST_CASE("sock-steps: 1,000 TCP connections, one row per cmtime step on both sides") {
    auto r = run_scenario(R"(
[[run]]
test = "sock-steps"
count = 1000
threads = 2
)");
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    const json run = json::parse(r.out).at("runs").at(0);
    REQUIRE(run.at("status") == "ok");
    REQUIRE(run.at("rows").size() == 34);
    auto rows = rows_by_name(run);
    for (const char *step : kSteps) {
        REQUIRE(rows.count(step) == 1);
        REQUIRE(rows.count(std::string("server ") + step) == 1);
        check_row_arithmetic(rows[step], 1000);
        check_row_arithmetic(rows[std::string("server ") + step], 1000);
    }
    // Client: socket, connect and close per connection; the whole connect
    // phase as a total only.
    for (const char *step : {"create id", "cm connect", "destroy id"})
        check_filled(rows[step], 1000);
    CHECK(value(rows["full connect"], "total(us)") >= value(rows["cm connect"], "total(us)"));
    CHECK(value(rows["full connect"], "sum(us)") == 0);
    // Server: accept and close per connection.
    check_filled(rows["server cm connect"], 1000);
    check_filled(rows["server destroy id"], 1000);
    CHECK(value(rows["server full connect"], "total(us)") > 0);
    // Steps TCP does not have stay zero on both sides.
    for (const char *step : {"bind addr", "resolve addr", "resolve route", "create qp",
                             "init qp attr", "init qp", "rtr qp attr", "rtr qp", "rts qp attr",
                             "rts qp", "establish", "disconnect", "destroy qp"}) {
        check_empty(rows[step]);
        check_empty(rows[std::string("server ") + step]);
    }
    for (const char *step : {"create id", "bind addr", "disconnect"})
        check_empty(rows[std::string("server ") + step]);
}

TEST_CASE("sock-steps: bind_address times a bind per connection") {
    auto r = run_scenario(R"(
[[run]]
test = "sock-steps"
count = 200
bind_address = "127.0.0.1"
)");
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    auto rows = rows_by_name(json::parse(r.out).at("runs").at(0));
    check_filled(rows["bind addr"], 200);
    check_row_arithmetic(rows["bind addr"], 200);
}

TEST_CASE("sock-steps: one worker: each phase's total covers its connections' intervals") {
    // The last connection of a phase stamps the phase's end itself; with one
    // worker the per-connection intervals follow each other inside it.
    auto r = run_scenario("[[run]]\ntest = \"sock-steps\"\ncount = 300\n");
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    auto rows = rows_by_name(json::parse(r.out).at("runs").at(0));
    for (const char *step : {"create id", "cm connect", "destroy id"}) {
        INFO(step);
        CHECK(value(rows[step], "total(us)") >= value(rows[step], "sum(us)"));
    }
    CHECK(value(rows["full connect"], "total(us)") >=
          value(rows["create id"], "total(us)") + value(rows["cm connect"], "total(us)"));
}

TEST_CASE("sock-steps: out-of-range parameters name the key and the range") {
    auto r = run_scenario("[[run]]\ntest = \"sock-steps\"\ncount = 0\n");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("count") && Catch::Contains("[1, 1000000]"));
    r = run_scenario("[[run]]\ntest = \"sock-steps\"\nthreads = 0\n");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("threads") && Catch::Contains("[1, 1024]"));
}

TEST_CASE("sock-steps: a bad bind address fails the run with the call's error") {
    auto r = run_scenario(R"(
[[run]]
test = "sock-steps"
count = 10
bind_address = "192.0.2.1"
)");
    CHECK(r.exit_code == 1);
    const json run = json::parse(r.out).at("runs").at(0);
    CHECK(run.at("status") == "failed");
    CHECK_THAT(run.at("error").get<std::string>(), Catch::Contains("bind: "));
}

TEST_CASE("cm-steps: max_pending is range-checked before anything runs") {
    auto r = run_scenario("[[run]]\ntest = \"cm-steps\"\nmax_pending = -1\n");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("max_pending") && Catch::Contains("[0, 1000000]"));
}

TEST_CASE("cm-steps without an RDMA device is skipped and points to the lab") {
    auto r = run_scenario("[[run]]\ntest = \"cm-steps\"\ncount = 5\n");
    INFO("stderr: " << r.err);
    const json run = json::parse(r.out).at("runs").at(0);
    if (run.at("status") == "ok") {
        WARN("this machine has an RDMA device; the skip path is not exercised here");
        return;
    }
    CHECK(r.exit_code == 1);
    CHECK(run.at("status") == "skipped");
    CHECK_THAT(run.at("error").get<std::string>(),
               Catch::Contains("no RDMA device") && Catch::Contains("tools/rdma-lab --"));
}

// ------------------------------------------------- the cmdbench cmtime front end

namespace {

std::vector<std::string> cmtime_args(std::vector<std::string> args) {
    args.insert(args.begin(), {cmdbench_exe(), "cmtime"});
    return args;
}

// A port per test, away from the default 7471 and from each other.
std::string test_port(int offset) {
    return std::to_string(17400 + (getpid() % 50) * 10 + offset);
}

// Waits (up to 10 s) until something listens on TCP `port` on IPv4: the
// controller. Connecting to it instead would take a leaf's place.
bool wait_listening(const std::string &port) {
    char hex[8];
    std::snprintf(hex, sizeof hex, ":%04X", std::stoi(port));
    for (int i = 0; i < 200; ++i) {
        std::ifstream tcp("/proc/net/tcp");
        std::string line;
        while (std::getline(tcp, line)) {
            std::istringstream f(line);
            std::string slot, local, remote, state;
            f >> slot >> local >> remote >> state;
            if (state == "0A" && local.size() > 5 && local.substr(local.size() - 5) == hex)
                return true;
        }
        usleep(50000);
    }
    return false;
}

} // namespace

TEST_CASE("cmtime: bad options name the option and the allowed range") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"-C", "127.0.0.1", "-b", "127.0.0.1", "-c", "0"}, "-c must be in [1, 1000000], got 0"},
        {{"-C", "127.0.0.1", "-b", "127.0.0.1", "-n", "0"}, "-n must be in [1, 1024], got 0"},
        {{"-C", "127.0.0.1", "-b", "127.0.0.1", "-P", "1"}, "-P must be in [2, 1024], got 1"},
        {{"-C", "127.0.0.1", "-b", "127.0.0.1", "-S", "-P", "3"}, "-P must be 2 with -S, got 3"},
        {{"-C", "127.0.0.1", "-b", "127.0.0.1", "-m", "5", "-q", "0"},
         "-q must be in [1, 16777215] with -m, got 0"},
        {{"-C", "127.0.0.1", "-b", "127.0.0.1", "-m", "1000000"},
         "-m must be in [0, 999999], got 1000000"},
        {{"-C", "127.0.0.1", "-b", "127.0.0.1", "-c", "ten"}, "-c must be an integer"},
        {{"-b", "127.0.0.1"}, "-C controller_address is required"},
        {{"-C", "127.0.0.1"}, "one of -b bind_address or -B interface is required"},
        {{"-C", "127.0.0.1", "-b", "127.0.0.1", "-B", "lo"}, "give one of -b or -B"},
        {{"-C", "127.0.0.1", "-b", "127.0.0.1", "-x"}, "unknown option"},
    };
    for (const auto &[args, message] : cases) {
        INFO(message);
        auto r = run_process(cmtime_args(args), 20);
        CHECK(r.exit_code == 1);
        CHECK_THAT(r.err, Catch::Contains(message));
        CHECK_THAT(r.out, Catch::Contains("usage: cmdbench cmtime"));
    }
}

TEST_CASE("cmtime -S: 1,000 connections, the server controls, both print cmtime's table") {
    const std::string port = test_port(1);
    const std::string dir = temp_dir();
    pid_t server = start_process(cmtime_args({"-S", "-L", "-C", "127.0.0.1", "-b", "127.0.0.1",
                                              "-p", port, "-c", "1000", "--timeout", "60"}),
                                 dir + "/srv.out", dir + "/srv.err");
    REQUIRE(wait_listening(port));
    auto client = run_process(cmtime_args({"-S", "-C", "127.0.0.1", "-b", "127.0.0.1", "-p", port,
                                           "-c", "1000", "-n", "2", "--timeout", "60"}),
                              90);
    const int server_rc = wait_process(server, 60);
    const std::string srv = read_file(dir + "/srv.out");
    INFO("client: " << client.out << client.err << "\nserver: " << srv
                    << read_file(dir + "/srv.err"));
    REQUIRE(client.exit_code == 0);
    REQUIRE(server_rc == 0);
    CHECK_THAT(srv, Catch::Contains("Running as OOB root"));
    CHECK_THAT(client.out, Catch::Contains("Client baseline socket results:\n"
                                           "cm_conn              1000\n"
                                           "threads                 2\n"
                                           "step             avg/conn  total(us)    us/conn    "
                                           "sum(us)    max(us)    min(us)\n"
                                           "full connect "));
    CHECK_THAT(srv,
               Catch::Contains("Server baseline socket results:\ncm_conn              1000\n"));
    // The controller's aggregated table adds p50/p99.
    CHECK_THAT(srv, Catch::Contains("Mesh sockets test: 1000 client connections of 1 client"));
    CHECK_THAT(srv, Catch::Contains("min(us)    p50(us)    p99(us)"));
    // Its last two columns: figures for 1,000 connects, "-" for a step TCP
    // does not have (no sample, no percentile).
    const auto mesh_tail = [&](const std::string &step) {
        const size_t at = srv.find("\n" + step + " ", srv.find("Mesh sockets test: 1000 client"));
        std::istringstream in(srv.substr(at + 1, srv.find('\n', at + 1) - at - 1));
        std::vector<std::string> w;
        for (std::string x; in >> x;)
            w.push_back(x);
        return std::vector<std::string>(w.end() - 2, w.end());
    };
    const auto connect = mesh_tail("cm connect");
    CHECK(connect[0] != "-");
    CHECK(connect[1] != "-");
    CHECK(mesh_tail("create qp") == std::vector<std::string>{"-", "-"});
    // cmtime's rows: label in 13 columns, six numbers in 10 columns each.
    std::istringstream lines(client.out);
    std::string line;
    int rows = 0;
    while (std::getline(lines, line)) {
        if (line.rfind("cm connect ", 0) == 0 || line.rfind("create id ", 0) == 0) {
            ++rows;
            CHECK(line.size() == 80); // 13 + 2 + 10 + 5 x 11, as upstream prints it
            unsigned long long avg, total, per, sum, max, min;
            REQUIRE(std::sscanf(line.c_str() + 13, "%llu %llu %llu %llu %llu %llu", &avg, &total,
                                &per, &sum, &max, &min) == 6);
            CHECK(total > 0);
            CHECK(sum > 0);
            CHECK(avg == total / 1000);
            CHECK(per == sum / 1000);
            CHECK(min <= max);
        }
    }
    CHECK(rows == 2);
}

// 50 connections: a p50 per step, no p99 (it needs 100 samples); null in
// the mesh's JSON rather than the slowest connection under that name.
TEST_CASE("cmtime -S: the mesh's p99 of 50 connections is null, its p50 a figure") {
    const std::string port = test_port(6);
    const std::string dir = temp_dir();
    pid_t server =
        start_process(cmtime_args({"-S", "-L", "-C", "127.0.0.1", "-b", "127.0.0.1", "-p", port,
                                   "-c", "50", "--timeout", "30", "--format", "json"}),
                      dir + "/srv.out", dir + "/srv.err");
    REQUIRE(wait_listening(port));
    auto client = run_process(cmtime_args({"-S", "-C", "127.0.0.1", "-b", "127.0.0.1", "-p", port,
                                           "-c", "50", "--timeout", "30"}),
                              60);
    const int server_rc = wait_process(server, 30);
    const std::string srv = read_file(dir + "/srv.out");
    INFO("client: " << client.out << client.err << "\nserver: " << srv
                    << read_file(dir + "/srv.err"));
    REQUIRE(client.exit_code == 0);
    REQUIRE(server_rc == 0);
    const json doc = json::parse(srv);
    CHECK(doc.at("schema_version") == 2);
    int checked = 0;
    for (const char *side : {"clients", "servers"})
        for (const json &step : doc.at("tests").at(0).at(side).at("report").at("steps")) {
            INFO(side << " " << step.dump());
            if (step.at("step") == "cm connect") {
                ++checked;
                CHECK(step.at("samples") == 50);
                CHECK(step.at("p50_us").is_number());
                CHECK(step.at("p99_us").is_null());
            }
            if (step.at("step") == "create qp") { // no sample at all
                CHECK(step.at("p50_us").is_null());
                CHECK(step.at("p99_us").is_null());
            }
        }
    CHECK(checked == 2);
}

TEST_CASE("cmtime: a peer with another -c is refused by name, both end with an error") {
    const std::string port = test_port(2);
    const std::string dir = temp_dir();
    pid_t server = start_process(cmtime_args({"-S", "-L", "-C", "127.0.0.1", "-b", "127.0.0.1",
                                              "-p", port, "-c", "100", "--timeout", "20"}),
                                 dir + "/mm.out", dir + "/mm.err");
    REQUIRE(wait_listening(port));
    auto client = run_process(cmtime_args({"-S", "-C", "127.0.0.1", "-b", "127.0.0.1", "-p", port,
                                           "-c", "50", "--timeout", "20"}),
                              40);
    const int server_rc = wait_process(server, 30);
    const std::string srv_err = read_file(dir + "/mm.err");
    INFO("client: " << client.err << "\nserver: " << srv_err);
    CHECK(client.exit_code == 1);
    CHECK(server_rc == 1);
    CHECK(client.seconds < wall_bound(15));
    CHECK_THAT(srv_err, Catch::Contains("peer 1 (127.0.0.1:") &&
                            Catch::Contains("runs with -c 50 where the controller has -c 100"));
    CHECK_THAT(client.err, Catch::Contains("runs with -c 50 where the controller has -c 100"));
}

TEST_CASE("cmtime: a controller address that is no peer's ends every peer within the timeout") {
    const std::string port = test_port(3);
    const std::string dir = temp_dir();
    // 192.0.2.1 (TEST-NET-1) is local to nobody here: both peers are leaves.
    pid_t server = start_process(cmtime_args({"-S", "-L", "-C", "192.0.2.1", "-b", "127.0.0.1",
                                              "-p", port, "--timeout", "4"}),
                                 dir + "/nc.out", dir + "/nc.err");
    auto client = run_process(
        cmtime_args({"-S", "-C", "192.0.2.1", "-b", "127.0.0.1", "-p", port, "--timeout", "4"}),
        30);
    const int server_rc = wait_process(server, 20);
    INFO("client: " << client.err << "\nserver: " << read_file(dir + "/nc.err"));
    CHECK(client.exit_code == 1);
    CHECK(server_rc == 1);
    CHECK(client.seconds < wall_bound(10));
    CHECK_THAT(client.err, Catch::Contains("cannot reach the controller at 192.0.2.1:" + port));
    CHECK_THAT(read_file(dir + "/nc.err"), Catch::Contains("cannot reach the controller"));
}

TEST_CASE("cmtime without an RDMA device says so and points to the lab") {
    auto r =
        run_process(cmtime_args({"-C", "127.0.0.1", "-b", "127.0.0.1", "-p", test_port(4)}), 20);
    if (r.exit_code == 0) {
        WARN("this machine has an RDMA device; the refusal is not exercised here");
        return;
    }
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("No RDMA devices were detected") &&
                          Catch::Contains("tools/rdma-lab --"));
}

TEST_CASE("cmtime --max-pending: range-checked with its name and range, listed in --help") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"-1", "--max-pending must be in [0, 1000000], got -1"},
        {"1000001", "--max-pending must be in [0, 1000000], got 1000001"},
        {"many", "--max-pending must be an integer in [0, 1000000], got 'many'"},
    };
    for (const auto &[value, message] : cases) {
        INFO(message);
        auto r = run_process(
            cmtime_args({"-C", "127.0.0.1", "-b", "127.0.0.1", "--max-pending", value}), 20);
        CHECK(r.exit_code == 1);
        CHECK_THAT(r.err, Catch::Contains(message));
        CHECK_THAT(r.out, Catch::Contains("usage: cmdbench cmtime"));
    }
    auto help = run_process(cmtime_args({"--help"}), 20);
    CHECK_THAT(help.out, Catch::Contains("[--max-pending n]"));
    // In range it is accepted: the run gets as far as the device check (or,
    // with a device, as far as waiting for its peer).
    auto r = run_process(cmtime_args({"-C", "127.0.0.1", "-b", "127.0.0.1", "-p", test_port(5),
                                      "--max-pending", "1000", "--timeout", "2"}),
                         20);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, !Catch::Contains("--max-pending"));
}
