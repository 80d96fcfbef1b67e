// Which rank measures against which in a matrix run (docs/matrix.md): ordered
// pairs (client rank -> server rank) grouped into rounds in which every rank
// is in at most one pair, so the pairs of a round can run at once without
// sharing a process. Pure: no I/O, unit-tested on its own.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace cmdbench {

enum class MatrixPattern { AllPairs, Ring, OneToAll, Bisection };

// "all-pairs", "ring", "one-to-all", "bisection".
const char *to_string(MatrixPattern p);
std::optional<MatrixPattern> matrix_pattern_from(const std::string &name);
// For messages: "all-pairs, ring, one-to-all, bisection".
extern const char *const kMatrixPatternNames;

struct MatrixPair {
    int client = 0;
    int server = 0;
};
using MatrixRound = std::vector<MatrixPair>;

// all-pairs: every ordered pair i != j, in 2(n-1) rounds for even n and 2n
// for odd n (circle method; each matching once in each direction).
// ring: i -> (i+1) % n. one-to-all: 0 -> j. bisection: i -> i + n/2, then
// the reverse, each direction one round (odd n: the last rank sits out).
// one_pair_at_a_time: the same pairs in the same order, one per round.
// Fewer than 2 ranks: no rounds.
std::vector<MatrixRound> matrix_schedule(MatrixPattern pattern, int ranks, bool one_pair_at_a_time);

} // namespace cmdbench
