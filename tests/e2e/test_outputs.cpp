// End to end: where `cmdbench run -o` and `--report` (and `cmdbench compare
// --report`) write, with the real binary, real files, FIFOs and devices: a
// results file is replaced safely, write errors reach the exit status, and
// paths that cannot be written are refused before anything runs.
#include "process.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <dirent.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using nlohmann::json;

namespace {

// Two quick runs: the -o file is rewritten after the first and at the end.
const char *kQuick = R"(
[[run]]
name = "first"
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 100
[[run]]
name = "second"
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 100
)";

// One run long enough that a refusal "before anything runs" shows in the time.
const char *kSlow = R"(
[[run]]
test = "throughput"
transport = "tcp"
sizes = [65536]
duration = 10
)";

std::string scenario(const std::string &dir, const char *text) {
    const std::string path = dir + "/scenario.toml";
    std::ofstream(path) << text;
    return path;
}

ProcessResult run(const std::string &dir, std::vector<std::string> extra, const char *text = kQuick,
                  const std::vector<std::string> &prefix = {}) {
    std::vector<std::string> argv = prefix;
    argv.insert(argv.end(), {cmdbench_exe(), "run", scenario(dir, text), "--quiet"});
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_process(argv, 120);
}

mode_t type_of(const std::string &path) {
    struct stat st;
    return lstat(path.c_str(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

std::vector<std::string> entries(const std::string &dir) {
    std::vector<std::string> names;
    DIR *d = opendir(dir.c_str());
    while (dirent *e = d ? readdir(d) : nullptr)
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
            names.push_back(e->d_name);
    if (d) closedir(d);
    return names;
}

// No temporary file of a write is left next to the results.
void check_no_temp_left(const std::string &dir) {
    for (const auto &name : entries(dir)) {
        INFO(name);
        CHECK(name.find(".tmp-") == std::string::npos);
    }
}

size_t runs_in(const std::string &text) {
    return json::parse(text).at("runs").size();
}

// The last component of a path ("cmdbench-e2e-X" of "/tmp/cmdbench-e2e-X").
std::string fs_name(const std::string &path) {
    return path.substr(path.find_last_of('/') + 1);
}

bool is_root() {
    return geteuid() == 0;
}

// Restores the test process's SIGXFSZ disposition (children inherit it).
struct XfszDisposition {
    explicit XfszDisposition(void (*handler)(int)) : old(signal(SIGXFSZ, handler)) {}
    ~XfszDisposition() { signal(SIGXFSZ, old); }
    void (*old)(int);
};

} // namespace

TEST_CASE("a symlink planted at the old FILE.tmp name is not followed") {
    const std::string dir = temp_dir();
    const std::string victim = dir + "/victim";
    std::ofstream(victim) << "precious\n";
    REQUIRE(symlink(victim.c_str(), (dir + "/out.json.tmp").c_str()) == 0);
    auto r = run(dir, {"-o", dir + "/out.json"});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(read_file(victim) == "precious\n");
    CHECK(type_of(dir + "/out.json") == S_IFREG);
    CHECK(runs_in(read_file(dir + "/out.json")) == 2);
    check_no_temp_left(dir);
}

TEST_CASE("a symlink at FILE stays a symlink and the file it points to gets the results") {
    const std::string dir = temp_dir();
    REQUIRE(mkdir((dir + "/real").c_str(), 0755) == 0);
    REQUIRE(symlink("real/results.json", (dir + "/out.json").c_str()) == 0); // dangling first
    auto r = run(dir, {"-o", dir + "/out.json"});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(type_of(dir + "/out.json") == S_IFLNK);
    CHECK(type_of(dir + "/real/results.json") == S_IFREG);
    CHECK(runs_in(read_file(dir + "/real/results.json")) == 2);
    check_no_temp_left(dir + "/real");
}

TEST_CASE("a results file keeps its permissions when replaced") {
    const std::string dir = temp_dir();
    const std::string out = dir + "/out.json";
    std::ofstream(out) << "{}";
    REQUIRE(chmod(out.c_str(), 0640) == 0);
    auto r = run(dir, {"-o", out});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    struct stat st;
    REQUIRE(stat(out.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0640);
    CHECK(runs_in(read_file(out)) == 2);
}

TEST_CASE("a FIFO target is written in place: its reader gets one document") {
    const std::string dir = temp_dir();
    const std::string fifo = dir + "/out.json";
    REQUIRE(mkfifo(fifo.c_str(), 0644) == 0);
    const pid_t reader = start_process({"/bin/cat", fifo}, dir + "/read", dir + "/cat.err");
    auto r = run(dir, {"-o", fifo});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(wait_process(reader, 10) == 0);
    CHECK(runs_in(read_file(dir + "/read")) == 2); // one document, the final one
    CHECK(type_of(fifo) == S_IFIFO);
}

TEST_CASE("a FIFO without a reader is an error after a bounded wait, and stays a FIFO") {
    const std::string dir = temp_dir();
    const std::string fifo = dir + "/out.json";
    REQUIRE(mkfifo(fifo.c_str(), 0644) == 0);
    auto r = run(dir, {"-o", fifo});
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.seconds < wall_bound(30));
    CHECK_THAT(r.err, Catch::Contains("cannot write " + fifo) && Catch::Contains("reading"));
    CHECK(type_of(fifo) == S_IFIFO);
}

TEST_CASE("a device target is written in place and stays a device") {
    if (!is_root()) {
        WARN("needs root for mknod; not tested");
        return;
    }
    // A null device of the test's own: never the real /dev/null.
    const std::string dir = temp_dir();
    const std::string dev = dir + "/null";
    REQUIRE(mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);
    auto r = run(dir, {"-o", dev});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    struct stat st;
    REQUIRE(lstat(dev.c_str(), &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
    CHECK(st.st_rdev == makedev(1, 3));
    check_no_temp_left(dir);
}

TEST_CASE("a full device is a clear error and a non-zero exit") {
    if (!is_root()) {
        WARN("needs root for mknod; not tested");
        return;
    }
    // Like /dev/full, in the test's own directory (never the real one).
    const std::string dir = temp_dir();
    const std::string dev = dir + "/full.json";
    REQUIRE(mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0);
    auto r = run(dir, {"-o", dev});
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("cannot write " + dev + ": No space left on device"));
    CHECK(type_of(dev) == S_IFCHR);
}

TEST_CASE("a failed write (file size limit) keeps the previous results file and exits 1") {
    const std::string dir = temp_dir();
    const std::string out = dir + "/out.json";
    auto first = run(dir, {"-o", out});
    REQUIRE(first.exit_code == 0);
    const std::string before = read_file(out);
    REQUIRE(runs_in(before) == 2);
    // EFBIG from write(2), as a full disk gives ENOSPC: no signal involved.
    XfszDisposition ignored(SIG_IGN);
    // Under half of the document without its comparison (which only the
    // final write has): the write after the first run fails too.
    nlohmann::json bare = nlohmann::json::parse(before);
    bare["comparison"].erase("result");
    const std::string limit = "--fsize=" + std::to_string(bare.dump(2).size() / 2);
    auto r = run(dir, {"-o", out}, kQuick, {"/usr/bin/prlimit", limit, "--"});
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("cannot write " + out + ": File too large"));
    CHECK(read_file(out) == before);
    check_no_temp_left(dir);
}

TEST_CASE("a file size limit is an error message, not a killed process") {
    const std::string dir = temp_dir();
    const std::string out = dir + "/out.json";
    XfszDisposition fatal(SIG_DFL);
    auto r = run(dir, {"-o", out}, kQuick, {"/usr/bin/prlimit", "--fsize=512", "--"});
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("cannot write " + out + ": File too large"));
    check_no_temp_left(dir);
}

TEST_CASE("paths of -o and --report that cannot be written are refused before any run") {
    const std::string dir = temp_dir();
    std::ofstream(dir + "/file") << "";
    std::vector<std::pair<std::string, std::string>> bad = {
        {"-o", dir + "/missing/out.json"},
        {"--report", dir + "/missing/r.html"},
        {"-o", dir + "/file/out.json"},
        {"--report", dir + "/file/r.html"},
        {"-o", dir},
        {"--report", dir},
        {"-o", (is_root() ? "/sys" : dir + "/ro") + std::string("/out.json")},
    };
    if (!is_root()) {
        REQUIRE(mkdir((dir + "/ro").c_str(), 0555) == 0);
        bad.push_back({"--report", dir + "/ro/r.html"});
    }
    for (const auto &[option, path] : bad) {
        INFO(option << " " << path);
        auto r = run(dir, {option, path}, kSlow);
        INFO(r.err);
        CHECK(r.exit_code == 2);
        CHECK(r.seconds < wall_bound(8));
        CHECK(r.out.empty()); // no run printed anything
        CHECK_THAT(r.err,
                   Catch::StartsWith("cmdbench: cannot write " + option + " " + path + ": "));
    }
}

TEST_CASE("an output that is another output or an input of the run is refused before any run") {
    const std::string dir = temp_dir();
    const std::string toml = scenario(dir, kSlow);
    std::ofstream(dir + "/kept.json") << "kept";
    std::ofstream(dir + "/token") << "e2e-token-5f1c0a9b7d3e2f4a6b8c";
    REQUIRE(chmod((dir + "/token").c_str(), 0600) == 0);
    REQUIRE(link(toml.c_str(), (dir + "/hard.toml").c_str()) == 0);
    REQUIRE(symlink("scenario.toml", (dir + "/soft.toml").c_str()) == 0);
    REQUIRE(symlink("new.json", (dir + "/dangling.json").c_str()) == 0);
    // Same file, other spellings: by identity, or by resolved path when new.
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"-o", dir + "/kept.json", "--report", dir + "/./kept.json"},
         "-o " + dir + "/kept.json and --report " + dir + "/./kept.json are the same file"},
        {{"-o", dir + "/new.html", "--report", dir + "/../" + fs_name(dir) + "/new.html"},
         "-o " + dir + "/new.html and --report "},
        {{"-o", dir + "/dangling.json", "--report", dir + "/new.json"}, "are the same file"},
        {{"-o", toml},
         "-o " + toml + " is the same file as the scenario " + toml + ", which it would overwrite"},
        {{"-o", dir + "/hard.toml"}, "is the same file as the scenario " + toml},
        {{"--report", dir + "/soft.toml"}, "is the same file as the scenario " + toml},
        {{"-o", dir + "/token", "--token-file", dir + "/token"},
         "is the same file as --token-file"},
        {{"--report", dir + "/kept.json", "--resume", dir + "/kept.json"},
         "is the same file as --resume"},
    };
    const std::string before = read_file(toml);
    for (const auto &[args, message] : cases) {
        std::vector<std::string> argv = {cmdbench_exe(), "run", toml, "--quiet"};
        argv.insert(argv.end(), args.begin(), args.end());
        auto r = run_process(argv, 60);
        INFO(args[0] << " " << args[1] << "\n" << r.err);
        CHECK(r.exit_code == 2);
        CHECK(r.seconds < 8);
        CHECK(r.out.empty()); // no run printed anything
        CHECK_THAT(r.err, Catch::Contains(message));
    }
    CHECK(read_file(toml) == before);
    CHECK(read_file(dir + "/kept.json") == "kept");
    CHECK(type_of(dir + "/new.json") == 0);
}

TEST_CASE("compare --report naming one of its inputs exits 2 and leaves it alone") {
    const std::string dir = temp_dir();
    const std::string results = dir + "/a.json";
    REQUIRE(run(dir, {"-o", results}).exit_code == 0);
    const std::string before = read_file(results);
    REQUIRE(symlink("a.json", (dir + "/b.json").c_str()) == 0);
    auto r = run_process({cmdbench_exe(), "compare", results, "--report", dir + "/b.json"}, 60);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains("--report " + dir + "/b.json is the same file as the input " +
                                      results + ", which it would overwrite"));
    CHECK(read_file(results) == before);
}

TEST_CASE("compare --report into a path that cannot be written exits 2 before comparing") {
    const std::string dir = temp_dir();
    const std::string results = dir + "/a.json";
    REQUIRE(run(dir, {"-o", results}).exit_code == 0);
    const std::string html = dir + "/missing/r.html";
    auto r = run_process({cmdbench_exe(), "compare", results, results, "--report", html}, 60);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::StartsWith("cmdbench: cannot write --report " + html + ": "));
}

TEST_CASE("compare --report through a symlink replaces the file it points to") {
    const std::string dir = temp_dir();
    const std::string results = dir + "/a.json";
    REQUIRE(run(dir, {"-o", results}).exit_code == 0);
    REQUIRE(symlink("real.html", (dir + "/r.html").c_str()) == 0);
    auto r = run_process({cmdbench_exe(), "compare", results, "--report", dir + "/r.html"}, 60);
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(type_of(dir + "/r.html") == S_IFLNK);
    CHECK_THAT(read_file(dir + "/real.html"), Catch::Contains("<html"));
}
