// The rounds of a matrix run: which ordered pairs, how many rounds, and that
// no rank is in two pairs of one round.
#include "cmdbench/host/scenario/matrix_schedule.hpp"

#include <catch2/catch.hpp>
#include <set>
#include <utility>

using namespace cmdbench;

namespace {

using PairSet = std::multiset<std::pair<int, int>>;

PairSet pairs_of(const std::vector<MatrixRound> &rounds) {
    PairSet out;
    for (const MatrixRound &round : rounds)
        for (const MatrixPair &p : round)
            out.insert({p.client, p.server});
    return out;
}

// Every rank at most once per round, never against itself, always in range.
void check_rounds(const std::vector<MatrixRound> &rounds, int n) {
    for (size_t r = 0; r < rounds.size(); ++r) {
        INFO("round " << r);
        CHECK_FALSE(rounds[r].empty());
        std::set<int> seen;
        for (const MatrixPair &p : rounds[r]) {
            CHECK(p.client != p.server);
            CHECK((p.client >= 0 && p.client < n && p.server >= 0 && p.server < n));
            CHECK(seen.insert(p.client).second);
            CHECK(seen.insert(p.server).second);
        }
    }
}

} // namespace

TEST_CASE("all-pairs: every ordered pair exactly once, 2(n-1) rounds for even n, 2n for odd") {
    for (int n = 2; n <= 17; ++n) {
        INFO("n = " << n);
        const auto rounds = matrix_schedule(MatrixPattern::AllPairs, n, false);
        check_rounds(rounds, n);
        PairSet expected;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                if (i != j) expected.insert({i, j});
        CHECK(pairs_of(rounds) == expected);
        CHECK(rounds.size() == size_t(n % 2 == 0 ? 2 * (n - 1) : 2 * n));
        // Even n: perfect matchings, every rank busy in every round.
        if (n % 2 == 0)
            for (const auto &round : rounds)
                CHECK(round.size() == size_t(n / 2));
    }
}

TEST_CASE("all-pairs of 64 ranks: 4032 pairs in 126 rounds of 32") {
    const auto rounds = matrix_schedule(MatrixPattern::AllPairs, 64, false);
    check_rounds(rounds, 64);
    CHECK(rounds.size() == 126);
    const PairSet all = pairs_of(rounds);
    CHECK(all.size() == 4032);
    CHECK(std::set<std::pair<int, int>>(all.begin(), all.end()).size() == 4032);
}

TEST_CASE("ring: i -> i+1 mod n, in 2 rounds for even n and 3 for odd") {
    for (int n = 2; n <= 9; ++n) {
        INFO("n = " << n);
        const auto rounds = matrix_schedule(MatrixPattern::Ring, n, false);
        check_rounds(rounds, n);
        PairSet expected;
        for (int i = 0; i < n; ++i)
            expected.insert({i, (i + 1) % n});
        CHECK(pairs_of(rounds) == expected);
        CHECK(rounds.size() == size_t(n % 2 == 0 ? 2 : 3));
    }
}

TEST_CASE("one-to-all: 0 -> j, one pair per round (rank 0 is in all)") {
    const auto rounds = matrix_schedule(MatrixPattern::OneToAll, 5, false);
    check_rounds(rounds, 5);
    CHECK(pairs_of(rounds) == PairSet{{0, 1}, {0, 2}, {0, 3}, {0, 4}});
    CHECK(rounds.size() == 4);
}

TEST_CASE("bisection: the halves face each other, one round each way") {
    const auto rounds = matrix_schedule(MatrixPattern::Bisection, 6, false);
    check_rounds(rounds, 6);
    REQUIRE(rounds.size() == 2);
    CHECK(pairs_of({rounds[0]}) == PairSet{{0, 3}, {1, 4}, {2, 5}});
    CHECK(pairs_of({rounds[1]}) == PairSet{{3, 0}, {4, 1}, {5, 2}});
    // Odd n: the last rank sits out.
    const auto odd = matrix_schedule(MatrixPattern::Bisection, 5, false);
    CHECK(pairs_of(odd) == PairSet{{0, 2}, {1, 3}, {2, 0}, {3, 1}});
}

TEST_CASE("one pair at a time: the same pairs in the same order, one per round") {
    for (MatrixPattern p : {MatrixPattern::AllPairs, MatrixPattern::Ring, MatrixPattern::OneToAll,
                            MatrixPattern::Bisection}) {
        INFO(to_string(p));
        const auto together = matrix_schedule(p, 7, false);
        const auto single = matrix_schedule(p, 7, true);
        std::vector<std::pair<int, int>> a, b;
        for (const auto &round : together)
            for (const auto &x : round)
                a.push_back({x.client, x.server});
        for (const auto &round : single) {
            REQUIRE(round.size() == 1);
            b.push_back({round[0].client, round[0].server});
        }
        CHECK(a == b);
    }
}

TEST_CASE("pattern names round-trip, fewer than 2 ranks have no rounds") {
    for (const char *name : {"all-pairs", "ring", "one-to-all", "bisection"})
        CHECK(std::string(to_string(*matrix_pattern_from(name))) == name);
    CHECK_FALSE(matrix_pattern_from("all_pairs"));
    CHECK(matrix_schedule(MatrixPattern::AllPairs, 1, false).empty());
}
