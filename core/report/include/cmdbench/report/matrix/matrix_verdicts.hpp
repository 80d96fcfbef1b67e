// Expectations judged in matrix mode (docs/matrix.md, "Verdicts"): each
// pair's verdicts (verdict.hpp) gathered per link, and per node and per
// rail, so that the bad node or cable is the first thing a reader sees.
#pragma once
#include "cmdbench/report/result.hpp"
#include "cmdbench/report/verdict.hpp"

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cmdbench {

// One link: a pair (client rank -> server rank) on one rail, over every run
// and repeat that judged it.
struct LinkVerdict {
    RunPair pair;     // round unused
    std::string rail; // "" without rails
    // The worst of its verdicts: fail, then unknown, then not run, then pass.
    Outcome outcome = Outcome::Pass;
    ExpectVerdict worst; // the verdict that decided it (a fail: the furthest from its bound)
    double miss = 0;     // a fail: how many times beyond its bound (>= 1)
    std::optional<double> headline; // median of its values of the headline check
    size_t verdicts = 0;
};

// The links of one node (those it was client or server of) or one rail.
struct VerdictTally {
    std::string name;       // node name or rail label
    std::vector<int> ranks; // a node's ranks
    size_t links = 0;
    size_t count[4] = {0, 0, 0, 0}; // links by Outcome
    std::optional<double> median;   // of its links' headline values
};

struct MatrixVerdicts {
    // The check a tally's median is of: link_fraction when the scenario
    // has one, else the first check judged.
    std::string metric, check, unit;
    std::vector<LinkVerdict> links;        // worst first
    std::vector<VerdictTally> nodes;       // worst first
    std::vector<VerdictTally> rails;       // worst first; empty without rails
    size_t count[4] = {0, 0, 0, 0};        // links by Outcome
    size_t expectations[4] = {0, 0, 0, 0}; // verdicts by Outcome
};

// The links, nodes and rails of a matrix report's verdicts (those with a
// pair; evaluate_expectations(report)).
MatrixVerdicts matrix_verdicts(const Report &report, const std::vector<ExpectVerdict> &verdicts);

// How many failing links the text and HTML list by name.
constexpr size_t kListedLinks = 10;

// "node07 (rank 7): 41 of 999 links FAIL, median 0.62 of line rate".
std::string tally_text(const MatrixVerdicts &m, const VerdictTally &t);
// "3 of 12 links FAIL (5 of 36 expectations failed), 1 NOT RUN; worst: ...":
// what `cmdbench run` says on stderr when a link fails.
std::string matrix_verdict_line(const MatrixVerdicts &m);

// The summary that opens a matrix's table output: the links by outcome,
// per rail, per node, the failing links (kListedLinks, then how many more).
void write_matrix_verdicts_table(std::ostream &out, const MatrixVerdicts &m);
// {"links": {...}, "rails": [...], "nodes": [...], "failing_links": [...]}.
nlohmann::ordered_json matrix_verdicts_json(const MatrixVerdicts &m);
// The same as HTML tables, rounded as the text.
void write_matrix_verdicts_html(std::ostream &out, const MatrixVerdicts &m);

} // namespace cmdbench
