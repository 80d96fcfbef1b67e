// Rank 0's store of finished pairs: what goes in comes back whole, the last
// result of a pair wins, nothing is left in the directory, and a disk that
// refuses more keeps the rest in memory and says so.
#include "../../support/scratch_dir.hpp"
#include "cmdbench/host/matrix/pair_store.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <stdexcept>
#include <sys/resource.h>
#include <thread>
#include <vector>

using namespace cmdbench;

namespace {

struct TempDir : ScratchDir {
    TempDir() : ScratchDir("cmdbench-pairs") {}
};

RunResult pair_result(int client, int server, double gbps, const std::string &status = "ok") {
    RunResult r;
    r.name = "bw";
    r.test = "throughput";
    r.transport = "tcp";
    r.params = {{"sizes", "[65536]"}};
    r.status = status == "ok" ? RunStatus::Ok : RunStatus::Failed;
    if (status != "ok") r.error = status;
    Row row;
    row.name = "64k";
    row.metrics.push_back({"Gb/sec", gbps, 0, {}});
    r.rows.push_back(row);
    r.pair = RunPair{client, server, "node" + std::to_string(client),
                     "node" + std::to_string(server), 1};
    r.expect.link_fraction = 0.5;
    return r;
}

} // namespace

TEST_CASE("pair store: a pair's result comes back whole, by its key") {
    const TempDir dir;
    PairStore store(dir.path);
    store.add(pair_result(0, 1, 9.5));
    store.add(pair_result(1, 0, 4.25, "peer reset the connection"));
    CHECK(store.size() == 2);
    const auto a = store.get({"bw", 1, 0, 1});
    REQUIRE(a);
    CHECK(a->status == RunStatus::Ok);
    CHECK(a->test == "throughput");
    REQUIRE(a->rows.size() == 1);
    REQUIRE(a->rows[0].metrics.size() == 1);
    CHECK(a->rows[0].metrics[0].value == 9.5);
    REQUIRE(a->pair);
    CHECK(a->pair->client_node == "node0");
    CHECK(a->pair->server == 1);
    CHECK(a->expect.link_fraction == 0.5);
    const auto b = store.get({"bw", 1, 1, 0});
    REQUIRE(b);
    CHECK(b->status == RunStatus::Failed);
    CHECK(b->error == "peer reset the connection");
    CHECK_FALSE(store.get({"bw", 2, 0, 1}));
    CHECK_FALSE(store.get({"lat", 1, 0, 1}));
    CHECK(store.problem().empty());
}

TEST_CASE("pair store: a later result of the same pair replaces the earlier") {
    const TempDir dir;
    PairStore store(dir.path);
    store.add(pair_result(2, 3, 1.0, "timed out"));
    store.add(pair_result(2, 3, 7.0));
    CHECK(store.size() == 1);
    const auto r = store.get({"bw", 1, 2, 3});
    REQUIRE(r);
    CHECK(r->status == RunStatus::Ok);
    CHECK(r->rows.at(0).metrics.at(0).value == 7.0);
}

TEST_CASE("pair store: the file has no name, so nothing is left behind") {
    const TempDir dir;
    {
        PairStore store(dir.path);
        for (int i = 0; i < 50; ++i)
            store.add(pair_result(i, i + 1, i));
        CHECK(entry_count(dir.path) == 0);
        CHECK(store.get({"bw", 1, 49, 50})->rows.at(0).metrics.at(0).value == 49);
    }
    CHECK(entry_count(dir.path) == 0);
}

TEST_CASE("pair store: threads add at once and every pair is kept") {
    const TempDir dir;
    PairStore store(dir.path);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&store, t] {
            for (int i = 0; i < 200; ++i)
                store.add(pair_result(t, i, t * 1000 + i));
        });
    for (auto &th : threads)
        th.join();
    CHECK(store.size() == 800);
    for (int t = 0; t < 4; ++t)
        for (int i = 0; i < 200; i += 37) {
            const auto r = store.get({"bw", 1, t, i});
            REQUIRE(r);
            CHECK(r->rows.at(0).metrics.at(0).value == t * 1000 + i);
        }
}

TEST_CASE("pair store: a directory it cannot use is an error that names it") {
    try {
        PairStore store("/nonexistent/cmdbench-dir");
        FAIL("no error");
    } catch (const std::runtime_error &e) {
        CHECK(std::string(e.what()).find("/nonexistent/cmdbench-dir") != std::string::npos);
    }
}

TEST_CASE("pair store: a disk that refuses more keeps the rest in memory, said once") {
    const TempDir dir;
    PairStore store(dir.path);
    rlimit old{};
    REQUIRE(getrlimit(RLIMIT_FSIZE, &old) == 0);
    rlimit small = old;
    small.rlim_cur = 2000; // a few results, then EFBIG
    auto *old_handler = std::signal(SIGXFSZ, SIG_IGN);
    REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
    for (int i = 0; i < 20; ++i)
        store.add(pair_result(0, i, i));
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
    CHECK(store.size() == 20);
    for (int i = 0; i < 20; ++i) {
        const auto r = store.get({"bw", 1, 0, i});
        REQUIRE(r);
        CHECK(r->rows.at(0).metrics.at(0).value == i);
    }
    CHECK(store.problem() == "cannot keep the pairs' results on disk in " + dir.path +
                                 " (File too large): the rest are kept in memory");
}
