#include "cmdbench/host/scenario/matrix_schedule.hpp"

#include <utility>

namespace cmdbench {
namespace {

constexpr std::pair<MatrixPattern, const char *> kNames[] = {
    {MatrixPattern::AllPairs, "all-pairs"},
    {MatrixPattern::Ring, "ring"},
    {MatrixPattern::OneToAll, "one-to-all"},
    {MatrixPattern::Bisection, "bisection"},
};

// Circle method on m (even) seats, seat m-1 fixed, the others turning: round
// r pairs r with m-1 and r+k with r-k. Seats >= n are byes (odd n).
std::vector<MatrixRound> all_pairs(int n) {
    const int m = n % 2 == 0 ? n : n + 1;
    std::vector<MatrixRound> rounds;
    for (int r = 0; r < m - 1; ++r) {
        MatrixRound forward, backward;
        auto add = [&](int a, int b) {
            if (a >= n || b >= n) return;
            forward.push_back({a, b});
            backward.push_back({b, a});
        };
        add(r, m - 1);
        for (int k = 1; k < m / 2; ++k)
            add((r + k) % (m - 1), (r - k + m - 1) % (m - 1));
        rounds.push_back(std::move(forward));
        rounds.push_back(std::move(backward));
    }
    return rounds;
}

// Each pair into the first round where neither of its ranks is busy.
std::vector<MatrixRound> first_fit(const std::vector<MatrixPair> &pairs, int n) {
    std::vector<MatrixRound> rounds;
    std::vector<std::vector<bool>> busy;
    for (const MatrixPair &p : pairs) {
        size_t r = 0;
        while (r < rounds.size() && (busy[r][size_t(p.client)] || busy[r][size_t(p.server)]))
            ++r;
        if (r == rounds.size()) {
            rounds.emplace_back();
            busy.emplace_back(size_t(n), false);
        }
        rounds[r].push_back(p);
        busy[r][size_t(p.client)] = busy[r][size_t(p.server)] = true;
    }
    return rounds;
}

std::vector<MatrixRound> bisection(int n) {
    const int half = n / 2;
    MatrixRound there, back;
    for (int i = 0; i < half; ++i) {
        there.push_back({i, i + half});
        back.push_back({i + half, i});
    }
    return {there, back};
}

} // namespace

const char *const kMatrixPatternNames = "all-pairs, ring, one-to-all, bisection";

const char *to_string(MatrixPattern p) {
    for (const auto &[pattern, name] : kNames)
        if (pattern == p) return name;
    return "?";
}

std::optional<MatrixPattern> matrix_pattern_from(const std::string &name) {
    for (const auto &[pattern, text] : kNames)
        if (name == text) return pattern;
    return std::nullopt;
}

std::vector<MatrixRound> matrix_schedule(MatrixPattern pattern, int ranks,
                                         bool one_pair_at_a_time) {
    if (ranks < 2) return {};
    std::vector<MatrixRound> rounds;
    switch (pattern) {
    case MatrixPattern::AllPairs:
        rounds = all_pairs(ranks);
        break;
    case MatrixPattern::Ring: {
        std::vector<MatrixPair> pairs;
        for (int i = 0; i < ranks; ++i)
            pairs.push_back({i, (i + 1) % ranks});
        rounds = first_fit(pairs, ranks);
        break;
    }
    case MatrixPattern::OneToAll: {
        std::vector<MatrixPair> pairs;
        for (int j = 1; j < ranks; ++j)
            pairs.push_back({0, j});
        rounds = first_fit(pairs, ranks);
        break;
    }
    case MatrixPattern::Bisection:
        rounds = bisection(ranks);
        break;
    }
    if (!one_pair_at_a_time) return rounds;
    std::vector<MatrixRound> single;
    for (const MatrixRound &round : rounds)
        for (const MatrixPair &p : round)
            single.push_back({p});
    return single;
}

} // namespace cmdbench
