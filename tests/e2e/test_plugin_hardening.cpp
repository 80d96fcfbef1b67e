// End to end: what third-party plugin authors get wrong is caught and named.
// A helper library in a plugin directory is skipped with a warning, while a
// broken plugin there is still refused; two plugins of one name are refused;
// a metric meaning plugin.h does not define fails the run that reports it.
// Fixtures: tests/fixtures (fixture_plugin.c, meaning_plugin.c).
#include "process.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string fixture(const std::string &name) {
    return std::string(CMDBENCH_BINARY_DIR) + "/tests/fixtures/" + name;
}

// A fresh plugin directory holding copies of fixtures, under the names given.
std::string plugin_dir(const std::vector<std::pair<std::string, std::string>> &files) {
    const std::string dir = temp_dir() + "/plugins";
    fs::create_directories(dir);
    for (const auto &[from, to] : files)
        fs::copy_file(fixture(from), dir + "/" + to, fs::copy_options::overwrite_existing);
    return dir;
}

size_t count(const std::string &text, const std::string &what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

std::string skip_warning(const std::string &file) {
    return "cmdbench: warning: skipping " + file +
           ": it does not export cmdbench_plugin_entry, so it is not a cmdbench plugin";
}

} // namespace

TEST_CASE(
    "a helper library in a plugin directory is skipped with one warning, and runs still run") {
    const std::string dir = plugin_dir({{"good.so", "cmdbench-good.so"},
                                        {"no_entry.so", "libhelper.so"},
                                        {"helper_missing_dep.so", "libneedsdep.so"}});
    const std::string scenario = temp_dir() + "/noop.toml";
    std::ofstream(scenario) << "[[run]]\ntest = \"noop\"\n";
    auto r = run_process(
        {cmdbench_exe(), "run", scenario, "--quiet", "--format", "json", "--plugin-dir", dir}, 60);
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.err, !Catch::Contains("plugin refused"));
    // Told apart without loading it: its missing dependency is no refusal.
    for (const std::string helper : {"libhelper.so", "libneedsdep.so"}) {
        CHECK(count(r.err, skip_warning(dir + "/" + helper)) == 1);
        CHECK(count(r.err, helper) == 1);
    }
    CHECK_THAT(r.err, Catch::Contains("helper libraries belong in a subdirectory"));
}

TEST_CASE("a plugin in a plugin directory that cannot load is still refused, naming why") {
    const std::string dir = plugin_dir({{"good.so", "cmdbench-good.so"},
                                        {"no_entry.so", "libhelper.so"},
                                        {"plugin_missing_dep.so", "cmdbench-needs-dep.so"},
                                        {"major.so", "cmdbench-major.so"}});
    auto r =
        run_process({cmdbench_exe(), "plugins", "--no-default-plugins", "--plugin-dir", dir}, 60);
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("cmdbench: plugin refused: " + dir +
                                      "/cmdbench-needs-dep.so: not a loadable shared object: "
                                      "libfixturedep.so: cannot open shared object file"));
    CHECK_THAT(r.err, Catch::Contains("cmdbench: plugin refused: " + dir +
                                      "/cmdbench-major.so: built for plugin "
                                      "ABI"));
    CHECK_THAT(r.err, !Catch::Contains("refused: " + dir + "/libhelper.so"));
    CHECK(count(r.err, skip_warning(dir + "/libhelper.so")) == 1);
    CHECK_THAT(r.out, Catch::Contains("test noop"));
}

TEST_CASE("two plugins of one name are refused, naming both files and versions") {
    auto r = run_process({cmdbench_exe(), "plugins", "--no-default-plugins", "--plugin-dir",
                          fixture("good.so"), "--plugin-dir", fixture("same_name.so")},
                         60);
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err,
               Catch::Contains("cmdbench: plugin refused: plugin 'fixture' is registered by both " +
                               fixture("good.so") + " (version 1.2.3) and " +
                               fixture("same_name.so") + " (version 0.9)"));
    CHECK_THAT(r.out, !Catch::Contains("noop-later"));

    // A run refuses it before anything runs, as for a duplicate test name.
    const std::string scenario = temp_dir() + "/noop.toml";
    std::ofstream(scenario) << "[[run]]\ntest = \"noop\"\n";
    auto run = run_process({cmdbench_exe(), "run", scenario, "--quiet", "--plugin-dir",
                            fixture("good.so"), "--plugin-dir", fixture("same_name.so")},
                           60);
    INFO("run stderr: " << run.err);
    CHECK(run.exit_code == 2);
    CHECK_THAT(run.err, Catch::Contains("cmdbench: plugin refused: plugin 'fixture' is registered "
                                        "by both "));
}

TEST_CASE("a plugin path that is a FIFO, a device or a symlink loop is refused by what it is") {
    const std::string dir = temp_dir();
    REQUIRE(mkfifo((dir + "/p.fifo").c_str(), 0600) == 0);
    fs::create_symlink("loop.so", dir + "/loop.so");
    fs::create_symlink("nowhere.so", dir + "/dangling.so");
    fs::create_symlink("p.fifo", dir + "/to-fifo.so");
    // Each refused at once: opening the FIFO would block until a writer came.
    const auto refusal = [](const std::vector<std::string> &args,
                            const std::vector<std::string> &env = {}) {
        std::vector<std::string> argv = {cmdbench_exe(), "plugins"};
        argv.insert(argv.end(), args.begin(), args.end());
        auto r = run_process(argv, 60, env);
        INFO("stdout: " << r.out << "\nstderr: " << r.err);
        CHECK(r.exit_code == 1);
        return r.err;
    };
    const auto named = [&](const std::string &path) {
        return refusal({"--no-default-plugins", "--plugin-dir", path});
    };
    CHECK_THAT(named(dir + "/p.fifo"),
               Catch::Contains("cmdbench: plugin refused: " + dir +
                               "/p.fifo: a FIFO (named pipe), not a plugin file or a directory "
                               "of plugins"));
    CHECK_THAT(named(dir + "/to-fifo.so"),
               Catch::Contains(dir + "/to-fifo.so: a symlink to a FIFO (named pipe), not"));
    CHECK_THAT(named("/dev/null"),
               Catch::Contains("/dev/null: a character device, not a plugin file"));
    CHECK_THAT(named(dir + "/loop.so"),
               Catch::Contains(dir + "/loop.so: a symlink loop (Too many levels of symbolic "
                                     "links)"));
    CHECK_THAT(
        named(dir + "/dangling.so"),
        Catch::Contains(dir + "/dangling.so: a symlink to nowhere.so, which does not exist"));
    // The default path too: a FIFO there is refused, not waited on.
    CHECK_THAT(refusal({}, {"CMDBENCH_PLUGIN_PATH=" + dir + "/p.fifo"}),
               Catch::Contains(dir + "/p.fifo: a FIFO (named pipe)"));

    // Named in a scenario: `run` stops before anything runs.
    std::ofstream(dir + "/s.toml") << "plugins = [\"p.fifo\"]\n[[run]]\ntest = \"noop\"\n";
    auto r = run_process({cmdbench_exe(), "run", dir + "/s.toml"}, 60);
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("cmdbench: plugin refused: " + dir + "/p.fifo: a FIFO"));
}

TEST_CASE("a metric meaning plugin.h does not define fails the run, naming plugin, test, metric") {
    const std::string scenario = temp_dir() + "/meaning.toml";
    std::ofstream(scenario) << "[[run]]\ntest = \"bad-kind\"\n"
                               "[[run]]\ntest = \"bad-better\"\n"
                               "[[run]]\ntest = \"bad-flags\"\n"
                               "[[run]]\ntest = \"no-size\"\n"
                               "[[run]]\ntest = \"good-meaning\"\n";
    const std::string results = temp_dir() + "/meaning.json";
    auto r = run_process({cmdbench_exe(), "run", scenario, "--quiet", "-o", results, "--plugin-dir",
                          fixture("meaning")},
                         120);
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 1);
    const json doc = json::parse(read_file(results));
    REQUIRE(doc["runs"].size() == 5);
    const std::string who = "plugin 'meaning' (" + fixture("meaning/meaning.so") + "), test '";
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"bad-kind", "metric 'ops/s' of row 'only' declares kind 99, which plugin.h does not "
                     "define (enum cmdbench_metric_kind: 0 to 7)"},
        {"bad-better", "histogram 'lat' of row 'only' declares better 7, which plugin.h does "
                       "not define (enum cmdbench_better: 0 to 2)"},
        {"bad-flags", "metric 'ops/s' of row 'only' declares flags 0x100000, which plugin.h "
                      "does not define (enum cmdbench_metric_flags: 0xff)"},
        {"no-size", "metric 'ops/s' of row 'only' declares its meaning with struct_size 0, "
                    "smaller than struct cmdbench_metric_meaning (16 bytes; initialise it with "
                    "CMDBENCH_MEANING)"},
    };
    for (size_t i = 0; i < expected.size(); ++i) {
        const json &run = doc["runs"][i];
        INFO("run " << run.dump());
        CHECK(run["test"] == expected[i].first);
        CHECK(run["status"] == "failed");
        CHECK(run["error"] == who + expected[i].first + "': " + expected[i].second);
    }
    CHECK(doc["runs"][4]["status"] == "ok");
    CHECK(doc["runs"][4]["rows"][0]["metrics"]["ops/s"]["kind"] == "rate");
}
