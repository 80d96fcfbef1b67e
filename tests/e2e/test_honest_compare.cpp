// End to end: comparisons a reader can trust. Repeats interleave by default
// (blocked on request), the results record the machine's load, a variant
// whose repeats spread too wide is flagged, steps a variant does not have
// are left out of its table, and every table column has its own name.
// Real runs over TCP on loopback, and the SDK's burst plugin.
#include "process.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <dirent.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

using json = nlohmann::json;

namespace {

const std::string kBurst = std::string(CMDBENCH_BINARY_DIR) + "/tests/sdk/burst/cmdbench-burst.so";

const std::string &dir() {
    static const std::string d = temp_dir();
    return d;
}

std::string write_scenario(const std::string &name, const std::string &text) {
    const std::string path = dir() + "/" + name + ".toml";
    std::ofstream(path) << text;
    return path;
}

struct Run {
    ProcessResult proc;
    json results;
};

// Runs a scenario with -o and returns the process and its results file.
Run run(const std::string &name, const std::string &text,
        const std::vector<std::string> &extra = {}) {
    const std::string out = dir() + "/" + name + ".json";
    std::vector<std::string> argv{cmdbench_exe(), "run", write_scenario(name, text),
                                  "--quiet",      "-o",  out};
    argv.insert(argv.end(), extra.begin(), extra.end());
    Run r;
    r.proc = run_process(argv, 300);
    INFO("stdout:\n" << r.proc.out << "\nstderr:\n" << r.proc.err);
    REQUIRE(r.proc.exit_code == 0);
    r.results = json::parse(read_file(out));
    return r;
}

// Two pingpong variants, three repeats each, in the order asked for.
std::string two_variants(const std::string &comparison) {
    const std::string run = "test = \"pingpong\"\ntransport = \"tcp\"\nsizes = [64]\n"
                            "iterations = 200\nrepeat = 3\n";
    return comparison + "\n[[run]]\nname = \"A\"\nvariant = \"tcp\"\n" + run +
           "\n[[run]]\nname = \"B\"\nvariant = \"tcp-again\"\n" + run;
}

std::string run_order(const json &results) {
    std::string order;
    for (const auto &r : results["runs"])
        order += r["name"].get<std::string>() + std::to_string(r["repeat"].get<int>()) + " ";
    return order;
}

// What the kernel offers as the CPUs' frequency governors, the way the
// results should say it: "unknown" when no CPU has cpufreq.
std::string expected_governor() {
    std::set<std::string> names;
    if (DIR *d = opendir("/sys/devices/system/cpu")) {
        while (const dirent *e = readdir(d)) {
            const std::string n = e->d_name;
            if (!std::regex_match(n, std::regex("cpu[0-9]+"))) continue;
            std::ifstream in("/sys/devices/system/cpu/" + n + "/cpufreq/scaling_governor");
            std::string g;
            if (in >> g) names.insert(g);
        }
        closedir(d);
    }
    std::string out;
    for (const auto &n : names)
        out += (out.empty() ? "" : ",") + n;
    return out.empty() ? "unknown" : out;
}

void check_loadavg(const json &l) {
    REQUIRE(l.is_array());
    REQUIRE(l.size() == 3);
    for (const auto &v : l) {
        REQUIRE(v.is_number());
        CHECK(v.get<double>() >= 0);
        CHECK(v.get<double>() < 10000);
    }
}

// The table's lines for one run: from its "== name:" title to the blank line,
// without the notes between the title and the header ("path: ...",
// "counters: ...": other tests check those). A counters note appears whenever
// the machine retransmitted a TCP segment during the run, so it must not
// shift the header.
std::vector<std::string> run_table(const std::string &out, const std::string &title) {
    std::vector<std::string> lines;
    std::istringstream in(out.substr(out.find("== " + title + ":")));
    std::string line;
    std::getline(in, line);
    const std::regex note("^[a-z][a-z ]*: ");
    while (std::getline(in, line) && !line.empty() && line.rfind("==", 0) != 0)
        if (!lines.empty() || !std::regex_search(line, note)) lines.push_back(line);
    return lines;
}

// Column names: separated by two or more spaces.
std::vector<std::string> headers(const std::string &line) {
    std::vector<std::string> names;
    std::regex sep(" {2,}");
    for (std::sregex_token_iterator it(line.begin(), line.end(), sep, -1), end; it != end; ++it)
        if (!it->str().empty()) names.push_back(*it);
    return names;
}

const json *cell(const json &comparison, const std::string &item, const std::string &metric,
                 const std::string &column) {
    for (const auto &row : comparison["rows"])
        if (row["item"] == item && row["metric"] == metric)
            for (const auto &c : row["cells"])
                if (c["column"] == column) return &c;
    return nullptr;
}

} // namespace

TEST_CASE("honest compare: repeats interleave by default and the results say so") {
    const Run r = run("interleaved", two_variants(""));
    CHECK(r.results["comparison"]["order"] == "interleaved");
    CHECK(run_order(r.results) == "A1 B1 A2 B2 A3 B3 ");
}

TEST_CASE("honest compare: order = \"blocked\" runs each run's repeats back to back") {
    const Run r = run("blocked", two_variants("[comparison]\norder = \"blocked\"\n"));
    CHECK(r.results["comparison"]["order"] == "blocked");
    CHECK(run_order(r.results) == "A1 A2 A3 B1 B2 B3 ");
    // The comparison is built the same way from either order.
    CHECK(r.proc.out.find("== comparison") != std::string::npos);
}

TEST_CASE("honest compare: a bad [comparison] key is an error at its place, exit 2") {
    struct Bad {
        std::string table, message;
    };
    for (const Bad &b : {
             Bad{"order = \"random\"", ":2:9: 'order' must be one of interleaved, blocked"},
             Bad{"order = 3", ":2:9: 'order' expects a string, got an integer"},
             Bad{"spread_limit = 0", ":2:16: 'spread_limit' must be between 0.01 and 10"},
             Bad{"spread_limit = 11.5", ":2:16: 'spread_limit' must be between 0.01 and 10"},
             Bad{"spread_limit = \"wide\"", ":2:16: 'spread_limit' expects a number"},
             Bad{"shuffle = true", ":2:1: unknown key 'shuffle' in [comparison]"},
         }) {
        const std::string path = write_scenario("bad", "[comparison]\n" + b.table +
                                                           "\n\n[[run]]\ntest = \"pingpong\"\n"
                                                           "transport = \"tcp\"\n");
        ProcessResult p = run_process({cmdbench_exe(), "run", path, "--quiet"}, 60);
        INFO(b.table << "\nstderr: " << p.err);
        CHECK(p.exit_code == 2);
        CHECK(p.err.find(path + b.message) != std::string::npos);
    }
}

TEST_CASE("honest compare: context and every run record the machine's load") {
    const Run r = run("context", two_variants(""));
    const json &ctx = r.results["context"];
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    CHECK(ctx["cpu"]["count"] == cpus);
    CHECK(ctx["cpu"]["governor"] == expected_governor());
    check_loadavg(ctx["loadavg"]);
    REQUIRE(r.results["runs"].size() == 6);
    for (const auto &run : r.results["runs"]) {
        const json &c = run["conditions"];
        REQUIRE(c.is_object());
        check_loadavg(c["loadavg"]);
        CHECK(c["cpu_count"] == cpus);
        CHECK(c["cpu_governor"] == expected_governor());
        // A run shorter than a clock tick may see no tick pass: no figure.
        if (c["foreign_cpu_share"].is_null() && run["wall_seconds"].get<double>() < 0.1) continue;
        REQUIRE(c["foreign_cpu_share"].is_number());
        CHECK(c["foreign_cpu_share"].get<double>() >= 0);
        CHECK(c["foreign_cpu_share"].get<double>() <= 1);
    }
}

// CPU seconds a process has used so far, from /proc/<pid>/stat.
double process_cpu_seconds(pid_t pid) {
    std::istringstream in(proc_stat_fields(pid));
    std::string field;
    // utime and stime are fields 14 and 15 of the line, 12 and 13 here.
    for (int i = 3; i < 14; ++i)
        in >> field;
    unsigned long long utime = 0, stime = 0;
    in >> utime >> stime;
    return double(utime + stime) / double(sysconf(_SC_CLK_TCK));
}

TEST_CASE("honest compare: a process spinning beside a run shows as foreign CPU load") {
    // A busy loop shares the CPUs with the run (and with whatever else the
    // machine runs), so how much it gets is the scheduler's business. What
    // it did get is on record: its own CPU time. Whatever of that fell
    // inside the run's window must show as foreign load. Outside the window
    // (before the run started, after it ended) it can have used at most one
    // CPU for the time that passed there.
    const auto spawned = std::chrono::steady_clock::now();
    const pid_t spinner = start_process({"/bin/sh", "-c", "while :; do :; done"},
                                        dir() + "/spin.out", dir() + "/spin.err");
    const Run r = run("foreign", "[[run]]\ntest = \"pingpong\"\ntransport = \"tcp\"\n"
                                 "sizes = [64]\niterations = 20000\n");
    const double spinner_cpu = process_cpu_seconds(spinner);
    const double spinner_life = seconds_since(spawned);
    kill(spinner, SIGKILL);
    wait_process(spinner, 10);

    const json &run0 = r.results["runs"][0];
    const json &c = run0["conditions"];
    // The share's window holds the run's wall time and lies within the
    // spinner's life.
    const double run_wall = run0["wall_seconds"].get<double>();
    const double spinner_in_run = spinner_cpu - (spinner_life - run_wall);
    const double cpus = double(sysconf(_SC_NPROCESSORS_ONLN));
    const double tick = 1.0 / double(sysconf(_SC_CLK_TCK));
    INFO(c.dump() << "\nrun wall " << run_wall << " s, spinner " << spinner_cpu << " s of CPU in "
                  << spinner_life << " s, at least " << spinner_in_run << " s inside the run");
    // The run must be long enough for the bound to say something.
    REQUIRE(spinner_in_run > 10 * tick);
    REQUIRE(c["foreign_cpu_share"].is_number());
    CHECK(c["foreign_cpu_share"].get<double>() * cpus * spinner_life >= spinner_in_run - 4 * tick);
}

TEST_CASE("honest compare: repeats that spread too wide are flagged, steady ones are not") {
    // "mixed" is one variant made of two runs that differ 100 times in
    // copies per burst, so its repeats' rates disagree by far more than any
    // limit; "steady" repeats one setting, its rates agree within 1.5x.
    // About 0.1 s of bursts each: a run of 1 ms spread 1.55x in CI, a time
    // slice lost to another process being most of it. Sanitized, the copies
    // run about 100 times slower: a fiftieth of the bursts, about 1 s.
    const std::string many = CMDBENCH_SANITIZED ? "4000" : "200000";
    const std::string few = CMDBENCH_SANITIZED ? "40" : "2000";
    const std::string burst = "test = \"burst\"\ngroup = \"burst\"\n";
    const Run r =
        run("spread",
            "baseline = \"steady\"\n[comparison]\nspread_limit = 1.5\n"
            "\n[[run]]\nvariant = \"steady\"\nspin = 20\nbursts = " +
                many + "\nrepeat = 2\n" + burst +
                "\n[[run]]\nvariant = \"mixed\"\nspin = 20\nbursts = " + many + "\n" + burst +
                "\n[[run]]\nvariant = \"mixed\"\nspin = 2000\nbursts = " + few + "\n" + burst,
            {"--plugin-dir", kBurst});
    CHECK(r.results["comparison"]["spread_limit"] == 1.5);
    ProcessResult cmp =
        run_process({cmdbench_exe(), "compare", dir() + "/spread.json", "--format", "json"}, 60);
    INFO("stdout:\n" << cmp.out << "\nstderr:\n" << cmp.err);
    REQUIRE(cmp.exit_code == 0);
    const json doc = json::parse(cmp.out);
    CHECK(doc["spread_limit"] == 1.5);
    for (const std::string item : {"small", "large"}) {
        const json *mixed = cell(doc, item, "bursts/s", "mixed");
        const json *steady = cell(doc, item, "bursts/s", "steady");
        REQUIRE(mixed);
        REQUIRE(steady);
        CHECK(mixed->at("spread_wide") == true);
        CHECK(mixed->at("spread").get<double>() > 1.5);
        CHECK(steady->at("spread_wide") == false);
        CHECK(steady->at("spread").get<double>() <= 1.5);
    }
    // The run's own table marks the flagged values and says why.
    const std::string table = r.proc.out.substr(r.proc.out.find("== comparison"));
    CHECK(std::regex_search(table, std::regex("\\n  small +bursts/s +1/s .*\\] +[^ ]+.*\\] !")));
    CHECK(table.find("repeats spread wider than 150% of the median") != std::string::npos);
}

TEST_CASE("honest compare: the default spread limit passes steady repeats unflagged") {
    const Run r = run("steady", two_variants(""));
    CHECK(r.results["comparison"]["spread_limit"] == 0.25);
    ProcessResult cmp =
        run_process({cmdbench_exe(), "compare", dir() + "/steady.json", "--format", "json"}, 60);
    REQUIRE(cmp.exit_code == 0);
    const json doc = json::parse(cmp.out);
    CHECK(doc["spread_limit"] == 0.25);
    // Every cell with repeats carries its spread, and the flag agrees with it.
    size_t with_spread = 0;
    for (const auto &row : doc["rows"])
        for (const auto &c : row["cells"]) {
            if (c["spread"].is_null()) continue;
            ++with_spread;
            CHECK(c["spread_wide"] == (c["spread"].get<double>() > 0.25));
        }
    CHECK(with_spread > 0);
}

TEST_CASE("honest compare: steps sock-steps does not time are left out of its table") {
    const Run r = run("steps", "[[run]]\ntest = \"sock-steps\"\ncount = 10\n");
    const json &rows = r.results["runs"][0]["rows"];
    std::set<std::string> in_json;
    for (const auto &row : rows)
        in_json.insert(row["name"].get<std::string>());
    REQUIRE(in_json.count("create qp")); // cmtime's step, never timed over TCP

    const std::vector<std::string> lines = run_table(r.proc.out, "sock-steps");
    INFO(r.proc.out);
    REQUIRE(lines.size() > 2);
    size_t shown = 0, hidden = 0;
    std::smatch m;
    for (size_t i = 1; i < lines.size(); ++i) {
        const std::string &line = lines[i];
        if (std::regex_search(line, m,
                              std::regex("^\\((\\d+) rows not shown: steps this run "
                                         "did not time")))
            hidden = std::stoul(m[1]);
        else if (line.rfind("cpu:", 0) != 0) {
            ++shown;
            const std::string name = line.substr(0, line.find("  "));
            CHECK(in_json.count(name));
            CHECK(name != "create qp");
        }
    }
    CHECK(hidden > 0);
    CHECK(shown > 0);
    CHECK(shown + hidden == rows.size());
}

TEST_CASE("honest compare: every column of a run's table has its own name") {
    const Run steps = run("columns", "[[run]]\ntest = \"sock-steps\"\ncount = 10\n");
    const std::vector<std::string> names = headers(run_table(steps.proc.out, "sock-steps")[0]);
    INFO(run_table(steps.proc.out, "sock-steps")[0]);
    CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());
    // The plugin's own min(us)/max(us) keep their names; the histogram's
    // summary is named after its histogram.
    for (const std::string want :
         {"min(us)", "max(us)", "conn.min(us)", "conn.p50(us)", "conn.max(us)"})
        CHECK(std::count(names.begin(), names.end(), want) == 1);

    // A lone histogram whose columns collide with nothing keeps short names.
    const Run ping = run("ping-columns", "[[run]]\ntest = \"pingpong\"\ntransport = \"tcp\"\n"
                                         "sizes = [64]\niterations = 200\n");
    const std::vector<std::string> pn = headers(run_table(ping.proc.out, "pingpong/tcp")[0]);
    INFO(run_table(ping.proc.out, "pingpong/tcp")[0]);
    CHECK(std::set<std::string>(pn.begin(), pn.end()).size() == pn.size());
}
