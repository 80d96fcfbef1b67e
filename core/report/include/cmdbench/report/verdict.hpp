// Judging a report's runs against their expectations (expectation.hpp):
// one verdict per row and check, shown by every reporter and deciding
// `cmdbench run`'s exit status 3 (docs/results.md, "Expectations").
#pragma once
#include "cmdbench/base/expected.hpp"
#include "cmdbench/report/link_rate.hpp"
#include "cmdbench/report/result.hpp"

#include <functional>
#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cmdbench {

// NotRun: the run (a matrix pair) never ran or was cut short (status
// interrupted): nothing was measured on it, which is not a failed link.
enum class Outcome { Pass, Fail, Unknown, NotRun };
const char *to_string(Outcome o);     // "pass", "fail", "unknown", "not_run"
const char *outcome_label(Outcome o); // "PASS", "FAIL", "UNKNOWN", "NOT RUN"

struct ExpectVerdict {
    std::string run; // run name
    unsigned repeat = 1, repeats = 1;
    std::string group, variant;
    std::string row;    // the row judged; "" when no row could be (unknown)
    std::string metric; // "bandwidth", "latency_p99", ...
    std::string unit;   // the metric's: "Gb/s", "us"
    std::string check;  // link_fraction, min, max, min_ratio, max_ratio
    double bound = 0;
    std::optional<double> value;    // what was compared with the bound
    std::optional<double> measured; // link_fraction and ratios: the row's own value
    std::optional<double> baseline; // ratios: the baseline's value (median of its repeats)
    std::optional<LinkRate> link;   // link_fraction: the rate judged against
    Outcome outcome = Outcome::Unknown;
    std::string reason; // unknown, not run: why it could not be judged
    std::string hint;   // unknown: what would judge it ("give an absolute bound: ...")
    // Matrix mode: the link judged, and its rail (the run's `@LABEL`, or the
    // row's for a run on every rail at once; "" without rails).
    std::optional<RunPair> pair;
    std::string rail;
};

// Verdicts handed over one at a time: a results file's expectations may
// give a million, so `cmdbench compare` never holds them all. A stream
// judges again each time it is called; an empty one has no verdicts.
using VerdictVisitor = std::function<void(const ExpectVerdict &)>;
using VerdictStream = std::function<void(const VerdictVisitor &)>;

// Every expectation of every run of the report, in run order. Ratios are
// taken against the median of the baseline variant's repeats of the same
// group, row and metric in this report.
std::vector<ExpectVerdict> evaluate_expectations(const Report &report);
// The same, each verdict to `visit` as it is given.
void judge_expectations(const Report &report, const VerdictVisitor &visit);
// The verdicts of each report in turn (a null one has none), or of a list.
VerdictStream verdicts_of(const std::vector<const Report *> &reports);
VerdictStream verdicts_of(const std::vector<ExpectVerdict> &verdicts);

// "throughput/rsocket 1m: bandwidth 1.02 Gb/s = 0.41 of rxe0 2.5 Gb/s, expected >= 0.9".
std::string verdict_text(const ExpectVerdict &v);
// "rank 3 (node3) -> rank 1 (node1) @rxe1"; "" outside matrix mode.
std::string link_text(const ExpectVerdict &v);
// Three significant digits, as verdict texts print numbers.
std::string verdict_number(double v);
// What the summary of verdicts needs, taken one at a time: the counts, and
// the text of the first few that did not pass.
class VerdictTotals {
  public:
    void add(const ExpectVerdict &v);
    size_t total() const { return total_; }
    size_t count(Outcome o) const { return counts_[int(o)]; }
    // Whether every expectation held: each verdict passed (a run not run
    // neither passed: `cmdbench run` exits 1 or 130 for it before judging).
    bool all_held() const { return counts_[int(Outcome::Pass)] == total_; }
    // "2 of 8 expectations failed: ...; ..." / "all 8 expectations held".
    std::string summary() const;

  private:
    size_t total_ = 0;
    size_t counts_[4] = {0, 0, 0, 0};
    std::vector<std::string> first_[4]; // by outcome
};
VerdictTotals total_verdicts(const VerdictStream &verdicts);

bool all_held(const std::vector<ExpectVerdict> &verdicts);
std::string verdict_summary(const std::vector<ExpectVerdict> &verdicts);

// The text section: "expectations:" then "PASS ..." lines and the summary;
// nothing when there are no verdicts. One pass over the stream; `lead` goes
// before the section when there is one.
void write_verdicts_table(std::ostream &out, const VerdictStream &verdicts, const char *lead = "");
void write_verdicts_table(std::ostream &out, const std::vector<ExpectVerdict> &verdicts);
// {"total", "passed", "failed", "unknown", "not_run", "verdicts": [...]};
// without `with_list`, "verdicts" is an empty array, for a writer that
// writes each verdict_json on its own (a matrix's million).
nlohmann::ordered_json verdicts_json(const std::vector<ExpectVerdict> &verdicts,
                                     bool with_list = true);
// The same without the list, from the totals of a stream.
nlohmann::ordered_json verdicts_json(const VerdictTotals &tally);
nlohmann::ordered_json verdict_json(const ExpectVerdict &v);

// runs[].expect as JSON and back. The reverse checks what it reads as a
// scenario's `expect` is checked (expect_rules.hpp); a failure's message
// starts with `where` ("results.json: runs[3] (run 'x')").
nlohmann::ordered_json expectations_json(const Expectations &e);
Expected<Expectations> expectations_from_json(const nlohmann::ordered_json &j,
                                              const std::string &where);

} // namespace cmdbench
