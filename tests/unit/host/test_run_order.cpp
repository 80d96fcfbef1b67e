// The order runs and repeats execute in, and the machine-load readings the
// results record: parsed from the kernel's text, computed from snapshots.
#include "cmdbench/host/machine/machine_load.hpp"
#include "cmdbench/host/plan/run_order.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace cmdbench;

namespace {

std::string order_text(const std::vector<RunSpec> &runs, RunOrder order) {
    std::string out;
    for (const PlannedRun &p : plan_runs(runs, order))
        out += runs[p.run].name + std::to_string(p.repeat) + " ";
    return out;
}

std::vector<RunSpec> runs_of(std::initializer_list<std::pair<const char *, unsigned>> list) {
    std::vector<RunSpec> runs;
    for (const auto &[name, repeat] : list) {
        RunSpec r;
        r.name = name;
        r.repeat = repeat;
        runs.push_back(r);
    }
    return runs;
}

} // namespace

TEST_CASE("run plan: interleaved goes round by round, blocked run by run") {
    const auto runs = runs_of({{"A", 3}, {"B", 2}, {"C", 1}});
    CHECK(order_text(runs, RunOrder::Interleaved) == "A1 B1 C1 A2 B2 A3 ");
    CHECK(order_text(runs, RunOrder::Blocked) == "A1 A2 A3 B1 B2 C1 ");
    CHECK(order_text(runs_of({{"A", 1}}), RunOrder::Interleaved) == "A1 ");
    CHECK(plan_runs({}, RunOrder::Interleaved).empty());
}

TEST_CASE("run plan: order names") {
    CHECK(run_order_from("interleaved") == RunOrder::Interleaved);
    CHECK(run_order_from("blocked") == RunOrder::Blocked);
    CHECK_FALSE(run_order_from("Blocked"));
    CHECK(std::string(to_string(RunOrder::Blocked)) == "blocked");
}

TEST_CASE("machine load: /proc/loadavg text") {
    auto l = parse_loadavg("0.52 1.58 10.25 1/467 12345\n");
    REQUIRE(l);
    CHECK((*l)[0] == 0.52);
    CHECK((*l)[1] == 1.58);
    CHECK((*l)[2] == 10.25);
    CHECK_FALSE(parse_loadavg(""));
    CHECK_FALSE(parse_loadavg("0.1 0.2"));
    CHECK_FALSE(parse_loadavg("0.1 -0.2 0.3"));
}

TEST_CASE("machine load: governors from a sysfs-like tree") {
    namespace fs = std::filesystem;
    const fs::path root = fs::temp_directory_path() / ("gov-" + std::to_string(::getpid()));
    fs::create_directories(root / "cpu0" / "cpufreq");
    fs::create_directories(root / "cpu1");
    fs::create_directories(root / "cpufreq"); // not a CPU
    CHECK(cpu_governor(root.string()) == "unknown");
    std::ofstream(root / "cpu0" / "cpufreq" / "scaling_governor") << "powersave\n";
    CHECK(cpu_governor(root.string()) == "powersave");
    fs::create_directories(root / "cpu1" / "cpufreq");
    std::ofstream(root / "cpu1" / "cpufreq" / "scaling_governor") << "performance\n";
    CHECK(cpu_governor(root.string()) == "performance,powersave");
    CHECK(cpu_governor((root / "absent").string()) == "unknown");
    fs::remove_all(root);
}

TEST_CASE("machine load: foreign share from two snapshots") {
    CpuSnapshot a{100, 1000, 10, true}, b{300, 1400, 60, true};
    // 200 busy ticks of 400, 50 of them ours: 150 / 400 foreign.
    CHECK(foreign_cpu_share(a, b) == Approx(0.375));
    CpuSnapshot ours_only{150, 1400, 60, true};
    CHECK(foreign_cpu_share(a, ours_only) == 0.0); // clamped, never negative
    CHECK_FALSE(foreign_cpu_share(a, a));          // no time passed
    CpuSnapshot bad = b;
    bad.valid = false;
    CHECK_FALSE(foreign_cpu_share(a, bad));
    CHECK(take_cpu_snapshot().valid);
}
