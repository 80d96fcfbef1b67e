// A matrix report's numbers, independent of how they are printed
// (report_matrix_table.cpp, report_matrix_html.cpp): per run, the N x N
// matrix of its main metric and its slowest links (docs/matrix.md).
#pragma once
#include "cmdbench/report/compare/comparison.hpp"
#include "cmdbench/report/result.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cmdbench {

struct MatrixCell {
    bool scheduled = false;      // the pattern has this pair
    std::optional<double> value; // median over the repeats that gave one
    std::string problem;         // "failed: ...", "timed-out: ..." of a repeat that did not
    // No value, and no repeat failed: it never ran (a rank gone, an
    // interrupt), which says nothing of the link.
    bool not_run = false;
    std::optional<double> link_gbps; // bandwidth: the pair's link rate, when its path says
};

// A line a single run's table shows under its title, for one pair's run:
// the background's Gb/s (under load) or a class of counters that is not
// traffic (retransmits, errors, congestion), word for word.
struct PairNote {
    int client = 0, server = 0;
    unsigned repeat = 1;
    bool repeated = false; // the run has several repeats: the label names this one
    std::string line;
};

// The notes the reports list under a matrix; every one is in the JSON.
constexpr size_t kPairNotesListed = 100;

struct SlowLink {
    int client = 0, server = 0;
    double value = 0;
    double ratio = 0; // value / the matrix median
};

struct MatrixView {
    std::string run; // run name
    std::string test, transport;
    // The metric shown: latency p50 when a row gives one, else bandwidth,
    // else connection rate; `item` is the row it comes from. No metric: no
    // row gave a value (every pair failed, or a test without one).
    std::optional<CompareMetric> metric;
    std::string item;
    int ranks = 0;
    std::vector<std::vector<MatrixCell>> cells; // [client][server]
    size_t pairs = 0, filled = 0;               // scheduled pairs, and those with a value
    std::optional<double> median;               // of the filled cells
    std::vector<SlowLink> slowest; // the worst ([matrix] worst_links of them), worst first
    // A run on every rail at once: the rail whose rows ("LABEL/ITEM") this
    // view shows; a view per rail when the metric has no total (latency).
    std::string rail;
    // The best median of the same metric among the runs of this one on the
    // other rails ("NAME @LABEL", or the rails of an all-rails run), and
    // that rail: a rail bad everywhere is worse than it, not its own median.
    std::optional<double> best_rail_median;
    std::string best_rail;
    // The first view of its run: the one the run's pair notes belong to (a
    // run with a view per rail has them once).
    bool first_of_run = true;
    // Its pairs' notes, in the results' order: every one up to
    // kPairNotesKeptRanks ranks (the heatmap's tooltips show them), else
    // the first kPairNotesListed; and how many there are in all.
    std::vector<PairNote> notes;
    size_t notes_total = 0;
};

// Up to this many ranks a view keeps every pair note (as the heatmap is a
// table up to that many).
constexpr int kPairNotesKeptRanks = 64;

// "0 -> 1: LINE", or "0 -> 1, repeat 2: LINE" when the run has repeats;
// `arrow` between the ranks.
std::string pair_note_text(const PairNote &n, const std::string &arrow);

// The lines the reports list under a matrix: the first kPairNotesListed
// notes as pair_note_text has them, then, when there are more, "... and 12
// more of these lines: ... in the JSON".
std::vector<std::string> pair_note_lines(const MatrixView &v, const std::string &arrow);

// One view per run name, in the order the runs first appear. `report.matrix`
// must be set (its ranks give N).
std::vector<MatrixView> matrix_views(const Report &report);

// The run's name, and the rail of a view per rail: "lat @all rails, rail rxe1".
std::string view_title(const MatrixView &v);

// "latency p50 (us) of row 64_lat", for captions.
std::string metric_caption(const MatrixView &v);

// Where a cell's colour sits on the heat scale (matrix_heat.hpp): the worse
// of its position against the view's median and against the absolute
// references known (the pair's link rate for bandwidth, the best rail's
// median). 0 for a cell without a value.
double cell_heat(const MatrixView &v, const MatrixCell &c);

// What the colours are set against, for legends: "the run's median", or
// "the worse of the run's median and the pair's link rate" ...
std::string heat_reference(const MatrixView &v);

// The view's median against its absolute references, or "": "median 30.0
// us, 3.00x the best rail's (rxe0: 10.0 us)", "median 8.00 Gb/s, 0.80 of
// the link rate (median over pairs)".
std::string reference_line(const MatrixView &v);

} // namespace cmdbench
