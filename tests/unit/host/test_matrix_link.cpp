// The matrix link between rank 0 and the other ranks, over real loopback
// sockets in one process: results arrive as they are sent, a round ends
// with the same word for all, and a rank that closes its link or falls
// silent is found gone (and said once) while the others go on.
#include "cmdbench/host/matrix/coordinator.hpp"
#include "cmdbench/host/matrix/job.hpp"
#include "cmdbench/host/matrix/rank_link.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <mutex>
#include <thread>

using namespace cmdbench;

namespace {

struct Seen {
    std::mutex mu;
    std::vector<std::pair<int, std::string>> results;
    std::vector<GoneRank> gone;
};

Coordinator::ResultFn on_result(Seen &s) {
    return [&s](int rank, const std::string &doc) {
        std::lock_guard<std::mutex> lock(s.mu);
        s.results.emplace_back(rank, doc);
    };
}

Coordinator::GoneFn on_gone(Seen &s) {
    return [&s](const GoneRank &g) {
        std::lock_guard<std::mutex> lock(s.mu);
        s.gone.push_back(g);
    };
}

std::unique_ptr<RankLink> join(const Coordinator &c, int rank) {
    return std::make_unique<RankLink>("127.0.0.1", c.port(), c.token(), rank, "rank 0 (here)");
}

// Rank 0's end of round `seq` on a thread of its own, as the job runs it.
std::future<RoundWord> end_round(Coordinator &c, size_t seq, const std::string &word,
                                 double timeout_s) {
    const auto began = std::chrono::steady_clock::now();
    return std::async(std::launch::async, [&c, seq, word, began, timeout_s] {
        return c.end_round(seq, word, began, timeout_s);
    });
}

} // namespace

TEST_CASE("matrix link: results as they come, one word for every rank") {
    Seen seen; // outlives the coordinator, whose thread reports to it
    Coordinator c("127.0.0.1", 3, 5);
    // Each waits for its start, which comes once all have joined.
    auto joining1 = std::async(std::launch::async, [&] { return join(c, 1); });
    auto joining2 = std::async(std::launch::async, [&] { return join(c, 2); });
    c.start(10, on_result(seen), on_gone(seen), [](int rank) {
        return nlohmann::json{{"skip", rank}};
    });
    auto links = std::make_pair(joining1.get(), joining2.get());
    CHECK(links.first->start()["skip"] == 1);
    CHECK(links.second->start()["skip"] == 2);
    links.first->send_result("{\"one\": 1}");
    links.second->send_result("{\"two\": 2}");
    auto root = end_round(c, 0, "go", 10);
    auto one = std::async(std::launch::async, [&] { return links.first->end_round(0, "go", 10); });
    const RoundWord two = links.second->end_round(0, "stop:not run: interrupted", 10);
    const RoundWord w = root.get();
    CHECK(w.stop == "not run: interrupted");
    CHECK(one.get().stop == "not run: interrupted");
    CHECK(two.stop == "not run: interrupted");
    CHECK(w.gone.empty());
    {
        std::lock_guard<std::mutex> lock(seen.mu);
        // Sent before the round's word, so there by the time it is given.
        REQUIRE(seen.results.size() == 2);
        CHECK(seen.results[0].second != seen.results[1].second);
    }
    auto end1 = std::async(std::launch::async, [&] { return links.first->wait_end(10); });
    auto end2 = std::async(std::launch::async, [&] { return links.second->wait_end(10); });
    c.finish(3);
    CHECK(end1.get() == 3);
    CHECK(end2.get() == 3);
    CHECK(seen.gone.empty());
}

TEST_CASE("matrix link: a rank whose link closes is gone at once, the round goes on") {
    Seen seen; // outlives the coordinator, whose thread reports to it
    Coordinator c("127.0.0.1", 3, 30);
    // Each waits for its start, which comes once all have joined.
    auto joining1 = std::async(std::launch::async, [&] { return join(c, 1); });
    auto joining2 = std::async(std::launch::async, [&] { return join(c, 2); });
    c.start(10, on_result(seen), on_gone(seen), nullptr);
    auto links = std::make_pair(joining1.get(), joining2.get());
    const auto t0 = std::chrono::steady_clock::now();
    links.second.reset(); // rank 2 dies: its socket closes
    auto root = end_round(c, 0, "go", 20);
    const RoundWord one = links.first->end_round(0, "go", 20);
    const RoundWord w = root.get();
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(took < 5); // not the 30 s of dead_after, nor the round's 20
    REQUIRE(w.gone.size() == 1);
    CHECK(w.gone[0].rank == 2);
    CHECK_FALSE(w.gone[0].silent);
    CHECK(w.gone[0].why.find("link to rank 0 broke") != std::string::npos);
    CHECK(one.is_gone(2));
    CHECK_FALSE(one.is_gone(1));
    CHECK(w.stop.empty());
    // Said once, on the coordinator's next turn.
    for (int i = 0; i < 50; ++i) {
        {
            std::lock_guard<std::mutex> lock(seen.mu);
            if (!seen.gone.empty()) break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::lock_guard<std::mutex> lock(seen.mu);
    CHECK(seen.gone.size() == 1);
}

TEST_CASE("matrix link: a silent rank is gone after dead_after, one never joined at start") {
    // Rank 2 joins but never says a word again (a stopped process): a raw
    // connection that sends the join frame only.
    Seen seen; // outlives the coordinator, whose thread reports to it
    Coordinator c("127.0.0.1", 4, 1.5);
    auto joining1 = std::async(std::launch::async, [&] { return join(c, 1); });
    auto joining2 = std::async(std::launch::async, [&] {
        control::Channel two = control::Channel::connect("127.0.0.1", c.port(), 5000);
        two.send(round_frame({{"t", "join"}, {"rank", 2}, {"token", c.token()}}), 5000);
        return two;
    });
    c.start(3, on_result(seen), on_gone(seen), nullptr); // rank 3 never comes
    auto links = std::make_pair(joining1.get(), joining2.get());
    auto root = end_round(c, 0, "go", 20);
    const RoundWord one = links.first->end_round(0, "go", 20);
    const RoundWord w = root.get();
    REQUIRE(w.gone.size() == 2);
    CHECK(w.gone[0].rank == 2);
    CHECK(w.gone[0].silent);
    CHECK(w.gone[0].why.find("no word from it for 1.5 s") != std::string::npos);
    CHECK(w.gone[1].rank == 3);
    CHECK(w.gone[1].why.find("did not reach rank 0") != std::string::npos);
    CHECK(one.gone.size() == 2);
    // The silent one, when it wakes, finds its start and then that it is out.
    CHECK(round_json(links.second.recv(2000))["t"] == "start");
    CHECK_THROWS(links.second.recv(2000));
}

TEST_CASE("matrix link: a stranger without the token is not taken for a rank") {
    Seen seen; // outlives the coordinator, whose thread reports to it
    Coordinator c("127.0.0.1", 2, 5);
    auto joining = std::async(std::launch::async, [&] {
        control::Channel stranger = control::Channel::connect("127.0.0.1", c.port(), 5000);
        stranger.send(round_frame({{"t", "join"}, {"rank", 1}, {"token", "guess"}}), 5000);
        return join(c, 1);
    });
    c.start(10, on_result(seen), on_gone(seen), nullptr);
    auto link = joining.get();
    auto root = end_round(c, 0, "go", 10);
    CHECK(link->end_round(0, "go", 10).gone.empty());
    CHECK(root.get().gone.empty());
}

TEST_CASE("matrix link: a rank whose rank 0 is gone gets a JobError naming it") {
    Seen seen; // outlives the coordinator, whose thread reports to it
    auto c = std::make_unique<Coordinator>("127.0.0.1", 2, 5);
    auto joining = std::async(std::launch::async, [&] { return join(*c, 1); });
    c->start(10, on_result(seen), on_gone(seen), nullptr);
    auto link = joining.get();
    c.reset();
    try {
        link->end_round(0, "go", 10);
        FAIL("no error");
    } catch (const JobError &e) {
        CHECK(std::string(e.what()).find("lost the link to rank 0 (here)") != std::string::npos);
    }
}
