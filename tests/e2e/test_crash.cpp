// End to end: when plugin code crashes or fails, on either side, the user is
// told who did it (signal, plugin, hook, run), earlier results survive, and
// later runs get a fresh local server.
#include "process.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

using nlohmann::json;

namespace {

std::string fixtures() {
    return std::string(CMDBENCH_BINARY_DIR) + "/tests/fixtures";
}

std::string write_scenario(const std::string &text) {
    std::string path = temp_dir() + "/scenario.toml";
    std::ofstream(path) << text;
    return path;
}

const char *kQuickRun = R"(
[[run]]
name = "first"
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 100
)";

// A scenario whose first run succeeds and whose second crashes the client;
// -o must still hold the first run.
void check_client_crash(const std::string &crash_run, const std::string &plugin_dir,
                        const std::string &expected, int signal) {
    std::string out = temp_dir() + "/results.json";
    auto r = run_process({cmdbench_exe(), "run", write_scenario(kQuickRun + crash_run), "-o", out,
                          "--quiet", "--plugin-dir", plugin_dir},
                         60);
    INFO("stderr: " << r.err);
    // Ended by the signal, as README says (the shell's 128 + N); a
    // sanitizer's own handler, which ours hands the signal on to, may exit.
    if (CMDBENCH_SANITIZED)
        CHECK(r.exit_code != 0);
    else
        CHECK(r.exit_code == 128 + signal);
    CHECK_THAT(r.err, Catch::Contains(expected));
    // A line of its own, no blank line before it (stderr is no terminal).
    CHECK_THAT(r.err, !Catch::Contains("\n\ncmdbench: plugin"));
    CHECK(r.err.rfind("\n", 0) != 0);
    // The local server says why it stops: its client went away, no Ctrl-C.
    CHECK_THAT(r.err, !Catch::Contains("Ctrl-C again"));
    json doc = json::parse(read_file(out));
    REQUIRE(doc["runs"].size() == 1);
    CHECK(doc["runs"][0]["name"] == "first");
    CHECK(doc["runs"][0]["status"] == "ok");
}

} // namespace

TEST_CASE("a client-side segfault names signal, plugin, hook and run, and -o keeps earlier runs") {
    check_client_crash("[[run]]\nname = \"boom\"\ntest = \"segv\"\nrepeat = 2\n",
                       fixtures() + "/fault",
                       "cmdbench: plugin 'fault' crashed (SIGSEGV, segmentation fault) in test "
                       "'segv', hook run, run 'boom' (repeat 1 of 2)",
                       SIGSEGV);
}

TEST_CASE("a client-side abort names signal, plugin, hook and run") {
    check_client_crash("[[run]]\nname = \"stop\"\ntest = \"abort\"\n", fixtures() + "/fault",
                       "cmdbench: plugin 'fault' crashed (SIGABRT, aborted) in test 'abort', hook "
                       "run, run 'stop'",
                       SIGABRT);
}

TEST_CASE("an uncaught C++ exception from a plugin is named with its message") {
    check_client_crash("[[run]]\nname = \"thrown\"\ntest = \"throw\"\n", fixtures() + "/fault-cxx",
                       "cmdbench: plugin 'fault-cxx' threw an uncaught exception (fixture "
                       "exception on purpose, the process must stop) in test 'throw', hook run, "
                       "run 'thrown'",
                       SIGABRT);
}

TEST_CASE("the local server crashing in run 2 of 3 fails run 2 with the cause, and run 3 runs") {
    auto r = run_process({cmdbench_exe(), "run",
                          write_scenario("[[run]]\nname = \"s\"\ntest = \"segv-server\"\n"
                                         "repeat = 3\ntimeout = 20\n"),
                          "--format", "json", "--plugin-dir", fixtures() + "/fault"},
                         90);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 1);
    json doc = json::parse(r.out);
    REQUIRE(doc["runs"].size() == 3);
    CHECK(doc["runs"][0]["status"] == "ok");
    CHECK(doc["runs"][1]["status"] == "failed");
    const std::string error = doc["runs"][1]["error"];
    // Under a sanitizer our line comes first, then the sanitizer's report,
    // and the sanitizer's exit status (ASan 1, TSan 66).
    const std::string cause = " during run 's' (repeat 2 of 3): plugin 'fault' crashed (SIGSEGV, "
                              "segmentation fault) in test 'segv-server', hook run, run 's'";
    if (CMDBENCH_SANITIZED) {
        CHECK_THAT(error, Catch::StartsWith("the local server exited with status ") &&
                              Catch::Contains(cause));
    } else {
        CHECK_THAT(error, Catch::StartsWith("the local server crashed (SIGSEGV, segmentation "
                                            "fault)" +
                                            cause));
    }
    // This side's own errors are not the server's.
    CHECK_THAT(error, !Catch::Contains("(server:"));
    CHECK(doc["runs"][2]["status"] == "ok");
    CHECK_THAT(r.err, Catch::Contains("; starting a new local server for run 's' (repeat 3 of 3)"));
}

TEST_CASE("a server-side hang past its timeout fails that run, and the next runs on a new server") {
    auto r = run_process({cmdbench_exe(), "run",
                          write_scenario("[[run]]\nname = \"stuck\"\ntest = \"hang-server\"\n"
                                         "timeout = 1\n" +
                                         std::string(kQuickRun)),
                          "--format", "json", "--plugin-dir", fixtures() + "/fault"},
                         90);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 1);
    json doc = json::parse(r.out);
    REQUIRE(doc["runs"].size() == 2);
    CHECK(doc["runs"][0]["status"] != "ok");
    CHECK_THAT(doc["runs"][0]["error"].get<std::string>(),
               Catch::Contains("test 'hang-server' did not stop"));
    CHECK(doc["runs"][1]["status"] == "ok");
    CHECK_THAT(r.err, Catch::Contains("starting a new local server for run 'first'"));
}

TEST_CASE("a transport hook failing without a message is named as the transport's") {
    auto r = run_process({cmdbench_exe(), "run",
                          write_scenario("[[run]]\ntest = \"pingpong\"\ntransport = "
                                         "\"tcp-silent\"\nsizes = [64]\niterations = 10\n"),
                          "--format", "json", "--plugin-dir", fixtures() + "/fault"},
                         60);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 1);
    json doc = json::parse(r.out);
    const std::string error = doc["runs"][0]["error"];
    CHECK_THAT(error, Catch::Contains(
                          "transport 'tcp-silent' hook 'configure' failed without saying why"));
    CHECK_THAT(error, !Catch::Contains("failed without saying why (server"));
}

TEST_CASE("SIGTERM to cmdbench run says terminated, never Ctrl-C") {
    std::string dir = temp_dir();
    std::string scenario = write_scenario(R"(
[[run]]
test = "throughput"
transport = "tcp"
sizes = [65536]
duration = 60
)");
    pid_t pid = start_process({cmdbench_exe(), "run", scenario, "--format", "json"}, dir + "/out",
                              dir + "/err");
    std::this_thread::sleep_for(std::chrono::seconds(2));
    kill(pid, SIGTERM);
    int code = wait_process(pid, 30);
    std::string err = read_file(dir + "/err");
    INFO(err);
    CHECK(code != 0);
    CHECK_THAT(err, Catch::Contains("cmdbench: terminated (SIGTERM), stopping"));
    CHECK_THAT(err, !Catch::Contains("Ctrl-C"));
}

TEST_CASE("a plugin whose entry point is a variable is refused, not called") {
    auto r = run_process({cmdbench_exe(), "plugins", "--no-default-plugins", "--plugin-dir",
                          fixtures() + "/entry_variable.so"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err,
               Catch::Contains("cmdbench: plugin refused: " + fixtures() + "/entry_variable.so: " +
                               "cmdbench_plugin_entry: its entry point is a data object (a "
                               "variable), not a function"));
}

TEST_CASE("a third-party plugin named like a shipped plugin is refused") {
    auto r =
        run_process({cmdbench_exe(), "plugins", "--plugin-dir", fixtures() + "/shipped_name.so"});
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("cmdbench: plugin refused: " + fixtures() +
                                      "/shipped_name.so: plugin name 'stream' belongs to the "
                                      "plugin shipped with cmdbench"));
    CHECK_THAT(r.out, !Catch::Contains("noop-impostor"));
}

TEST_CASE("a file that is not a shared object is refused in the loader's words, no stale errno") {
    auto r = run_process({cmdbench_exe(), "plugins", "--no-default-plugins", "--plugin-dir",
                          fixtures() + "/not_elf.so"});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("cmdbench: plugin refused: " + fixtures() +
                                      "/not_elf.so: not a loadable shared object: file too short"));
    CHECK_THAT(r.out, !Catch::Contains("Bad file descriptor"));
}
