// Expectations judged on a report (verdict.hpp).
#include "cmdbench/report/verdict.hpp"

#include "cmdbench/control/printable_text.hpp"
#include "compare/comparison_samples.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <tuple>
#include <unordered_map>

namespace cmdbench {
namespace {

using Json = nlohmann::ordered_json;

// Three significant digits, without an exponent in the usual range.
std::string num(double v) {
    char buf[64];
    if (std::fabs(v) >= 1000 && std::fabs(v) < 1e15)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

// Matrix mode: the rail a run measured, from the names the planner gives
// a rail's run ("NAME @LABEL", variant "V@LABEL"); "all rails" for the run
// on every rail at once; "" for any other run.
std::string run_rail(const RunResult &run) {
    if (!run.pair) return "";
    if (!run.rails.empty()) return "all rails";
    const size_t at = run.name.rfind(" @");
    if (at == std::string::npos) return "";
    const std::string label = run.name.substr(at + 2);
    if (label == "all rails") return label;
    const std::string suffix = "@" + label;
    const std::string &variant = run.variant;
    if (variant.size() <= suffix.size() ||
        variant.compare(variant.size() - suffix.size(), suffix.size(), suffix) != 0)
        return "";
    return label;
}

// The variant without its rail: a matrix's rail runs are compared with the
// baseline's run on the same rail.
std::string bare_variant(const RunResult &run) {
    std::string v = run_variant(run);
    const std::string rail = run_rail(run);
    if (rail.empty()) return v;
    const std::string suffix = rail == "all rails" ? "@all" : "@" + rail;
    if (v.size() > suffix.size() && v.compare(v.size() - suffix.size(), suffix.size(), suffix) == 0)
        v.resize(v.size() - suffix.size());
    return v;
}

// A row's rail: a run on every rail at once names its rails' rows "LABEL/ROW".
std::string row_rail(const RunResult &run, const std::string &row) {
    for (const RailPart &r : run.rails)
        if (row.rfind(r.label + "/", 0) == 0) return r.label;
    return run_rail(run);
}

// group, row, metric; in matrix mode also client, server and rail, so that
// a pair is set against the baseline's run of the same link.
using BaselineKey = std::tuple<std::string, std::string, std::string, int, int, std::string>;

BaselineKey baseline_key(const RunResult &run, const std::string &row, const std::string &metric) {
    if (!run.pair) return {run_group(run), row, metric, -1, -1, ""};
    return {run_group(run), row, metric, run.pair->client, run.pair->server, run_rail(run)};
}

bool is_baseline(const Report &report, const RunResult &run) {
    return (run.pair ? bare_variant(run) : run_variant(run)) == report.baseline;
}

// The baseline variant's value of every key: the median of its repeats, as
// the comparison takes it.
std::map<BaselineKey, double> baseline_values(const Report &report) {
    std::map<BaselineKey, std::vector<double>> all;
    for_each_run(report, [&](const RunResult &run) {
        if (is_baseline(report, run))
            for (const auto &s : every_sample(run))
                if (s.value) all[baseline_key(run, s.item, s.metric.id)].push_back(*s.value);
    });
    std::map<BaselineKey, double> out;
    for (auto &[key, values] : all) {
        std::sort(values.begin(), values.end());
        const size_t mid = values.size() / 2;
        out[key] = values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }
    return out;
}

bool holds(const std::string &check, double value, double bound) {
    const bool lower = check == "min" || check == "min_ratio" || check == "link_fraction";
    return lower ? value >= bound : value <= bound;
}

// The link names of a run's path, for "link rate unknown (lo, lo)".
std::string link_names(const RunPath &p) {
    std::vector<std::string> names;
    for (const auto *side : {&p.client, &p.server})
        if (*side) {
            const SidePath &s = **side;
            std::string n = s.rdma && !s.devices.empty()
                                ? s.devices.front().name + " rate " + s.devices.front().rate
                                : s.interface.name + " speed " + s.interface.speed;
            if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
        }
    std::string out;
    for (const auto &n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "no path recorded" : out;
}

// The same for a result: each rail's, for a run on every rail at once.
std::string link_names(const RunResult &run) {
    if (run.rails.empty()) return link_names(run.path);
    std::string out;
    for (const RailPart &rail : run.rails)
        out += (out.empty() ? "" : "; ") + rail.label + ": " + link_names(rail.path);
    return out;
}

class Judge {
  public:
    // One pass to see what the runs ask for; the baseline's values (a pass
    // and a map of every sample) only when some run has a ratio bound.
    explicit Judge(const Report &report) : report_(report) {
        bool ratio = false;
        for_each_run(report, [&](const RunResult &run) {
            any_baseline_ = any_baseline_ || is_baseline(report, run);
            any_expect_ = any_expect_ || !run.expect.empty();
            ratio = ratio || run.expect.has_ratio();
        });
        if (ratio) baseline_ = baseline_values(report);
    }

    // Each verdict to `visit` as it is given, none kept.
    void each(const VerdictVisitor &visit) {
        if (!any_expect_) return;
        visit_ = &visit;
        for_each_run(report_, [&](const RunResult &run) {
            if (run.expect.empty()) return;
            run_ = &run;
            judge_run(run);
        });
    }

  private:
    ExpectVerdict base(const RunResult &run, const std::string &metric, const std::string &check,
                       double bound) const {
        ExpectVerdict v;
        v.run = run.name;
        v.repeat = run.repeat;
        v.repeats = run.repeats;
        v.group = run_group(run);
        v.variant = run_variant(run);
        v.metric = metric;
        v.check = check;
        v.bound = bound;
        v.pair = run.pair;
        return v;
    }

    void unknown(ExpectVerdict v, std::string reason) {
        v.outcome = Outcome::Unknown;
        v.reason = std::move(reason);
        emit(std::move(v));
    }

    void decide(ExpectVerdict v, double value) {
        v.value = value;
        v.outcome = holds(v.check, value, v.bound) ? Outcome::Pass : Outcome::Fail;
        emit(std::move(v));
    }

    void emit(ExpectVerdict v) {
        if (run_->pair) v.rail = row_rail(*run_, v.row);
        (*visit_)(v);
    }

    void judge_run(const RunResult &run) {
        // Every check of a run that did not finish is unknown: an acceptance
        // run must not pass on a skipped device.
        const auto checks = checks_of(run.expect);
        // Interrupted is what a run (a pair) that never ran, or was cut
        // short, gets: not run, which is not a failed link.
        if (run.status == RunStatus::Interrupted) {
            std::string why =
                run.error.rfind("not run", 0) == 0
                    ? run.error
                    : "run interrupted" + (run.error.empty() ? std::string() : ": " + run.error);
            for (const auto &[metric, check, bound] : checks) {
                ExpectVerdict v = base(run, metric, check, bound);
                v.outcome = Outcome::NotRun;
                v.reason = why;
                emit(std::move(v));
            }
            return;
        }
        if (run.status != RunStatus::Ok) {
            std::string why = std::string("run ") + to_string(run.status);
            if (!run.error.empty()) why += ": " + run.error;
            for (const auto &[metric, check, bound] : checks)
                unknown(base(run, metric, check, bound), why);
            return;
        }
        const std::vector<CompareSample> samples = every_sample(run);
        if (run.expect.link_fraction) judge_link(run, samples, *run.expect.link_fraction);
        // Each check reads its metric's samples only: scanning all of them
        // for every check multiplied the run's samples by its checks.
        std::unordered_map<std::string, std::vector<const CompareSample *>> by_metric;
        for (const CompareSample &s : samples)
            by_metric[s.metric.id].push_back(&s);
        static const std::vector<const CompareSample *> kNone;
        for (const auto &[metric, check, bound] : checks) {
            if (check == "link_fraction") continue;
            if (is_counter_expectation(metric)) {
                judge_counters(run, metric, check, bound);
                continue;
            }
            const auto it = by_metric.find(metric);
            judge_metric(run, it == by_metric.end() ? kNone : it->second, metric, check, bound);
        }
    }

    static std::vector<std::tuple<std::string, std::string, double>>
    checks_of(const Expectations &e) {
        std::vector<std::tuple<std::string, std::string, double>> out;
        if (e.link_fraction) out.emplace_back("bandwidth", "link_fraction", *e.link_fraction);
        for (const auto &[metric, b] : e.metrics)
            for (const auto &[check, bound] :
                 {std::pair<const char *, const std::optional<double> &>{"min", b.min},
                  {"max", b.max},
                  {"min_ratio", b.min_ratio},
                  {"max_ratio", b.max_ratio}})
                if (bound) out.emplace_back(metric, check, *bound);
        return out;
    }

    void judge_link(const RunResult &run, const std::vector<CompareSample> &samples, double bound) {
        ExpectVerdict v = base(run, CompareMetric::Bandwidth.id, "link_fraction", bound);
        v.unit = CompareMetric::Bandwidth.unit;
        std::vector<const CompareSample *> rows;
        for (const auto &s : samples)
            if (s.metric == CompareMetric::Bandwidth && s.value && !s.per_run) rows.push_back(&s);
        if (rows.empty()) {
            if (!run.expect.inherited) unknown(v, "no bandwidth row in this run");
            return;
        }
        const auto rate = result_link_rate(run);
        if (!rate) {
            v.hint = "give an absolute bound: expect.bandwidth.min = " + num(bound) +
                     " x the link's rate in Gb/s";
            return unknown(v, "link rate unknown (" + link_names(run) + ")");
        }
        v.link = rate;
        for (const CompareSample *s : rows) {
            ExpectVerdict row = v;
            row.row = s->item;
            row.measured = *s->value;
            row.link = row_link_rate(run, s->item); // a rail's row: that rail's rate
            decide(std::move(row), *s->value * 1e9 / row.link->bits_per_second);
        }
    }

    // retransmits, counter_errors: one verdict on the run, the sum of the
    // class's deltas on both sides (docs/counters.md).
    void judge_counters(const RunResult &run, const std::string &metric, const std::string &check,
                        double bound) {
        ExpectVerdict v = base(run, metric, check, bound);
        const auto sum = counter_class_sum(run.counters, counter_expectation_class(metric));
        if (!sum) return unknown(v, "no counters recorded for this run");
        decide(std::move(v), double(*sum));
    }

    // `samples`: the run's samples of `metric`.
    void judge_metric(const RunResult &run, const std::vector<const CompareSample *> &samples,
                      const std::string &metric, const std::string &check, double bound) {
        ExpectVerdict v = base(run, metric, check, bound);
        const bool ratio = check == "min_ratio" || check == "max_ratio";
        bool any = false;
        for (const CompareSample *sample : samples) {
            const CompareSample &s = *sample;
            if (!s.value && s.no_value_reason.empty()) continue; // measured nothing
            any = true;
            ExpectVerdict row = v;
            row.row = s.item;
            row.unit = s.metric.unit;
            if (!s.value) { // measured, but no figure (a p99 of 5 samples): cannot pass
                unknown(std::move(row), s.no_value_reason);
                continue;
            }
            if (!ratio) {
                decide(std::move(row), *s.value);
                continue;
            }
            row.measured = *s.value;
            const auto it = baseline_.find(baseline_key(run, s.item, metric));
            if (it == baseline_.end() || it->second == 0) {
                std::string why = "no value of baseline '" + report_.baseline + "'";
                // A matrix sets a pair against the baseline's run of the
                // same pair and rail only.
                if (run.pair) {
                    why +=
                        any_baseline_ ? " on this link" : ": no run of that variant in this matrix";
                    row.hint = "give an absolute bound: expect." + metric +
                               (check == "min_ratio" ? ".min" : ".max") + " = ... " + row.unit;
                }
                unknown(std::move(row), why);
                continue;
            }
            row.baseline = it->second;
            decide(std::move(row), *s.value / it->second);
        }
        if (!any && !run.expect.inherited)
            unknown(v, "no row of this run has a value for " + metric);
    }

    const Report &report_;
    std::map<BaselineKey, double> baseline_;
    bool any_expect_ = false;
    bool any_baseline_ = false;
    const VerdictVisitor *visit_ = nullptr;
    const RunResult *run_ = nullptr; // the run being judged
};

const char *bound_sign(const std::string &check) {
    return check == "max" || check == "max_ratio" ? "<=" : ">=";
}

// A matrix verdict names its link; a rail run's name loses its " @LABEL",
// which the link carries.
std::string subject(const ExpectVerdict &v) {
    std::string s = v.run;
    const std::string at = " @" + v.rail;
    if (v.pair && !v.rail.empty() && v.rail != "all rails" && s.size() > at.size() &&
        s.compare(s.size() - at.size(), at.size(), at) == 0)
        s.resize(s.size() - at.size());
    if (v.repeats > 1)
        s += " [rep " + std::to_string(v.repeat) + "/" + std::to_string(v.repeats) + "]";
    if (v.pair) s += " " + link_text(v);
    if (!v.row.empty()) s += " " + v.row;
    return printable_text(s);
}

// The built-in latency family is one-way: half the round trip that the
// tables' latency columns (p50(us), p99(us)) show.
bool one_way(const ExpectVerdict &v) {
    return v.metric == CompareMetric::LatencyP50.id || v.metric == CompareMetric::LatencyP99.id;
}

} // namespace

const char *to_string(Outcome o) {
    switch (o) {
    case Outcome::Pass:
        return "pass";
    case Outcome::Fail:
        return "fail";
    case Outcome::Unknown:
        return "unknown";
    case Outcome::NotRun:
        return "not_run";
    }
    return "unknown";
}

const char *outcome_label(Outcome o) {
    switch (o) {
    case Outcome::Pass:
        return "PASS";
    case Outcome::Fail:
        return "FAIL";
    case Outcome::Unknown:
        return "UNKNOWN";
    case Outcome::NotRun:
        return "NOT RUN";
    }
    return "UNKNOWN";
}

std::string verdict_number(double v) {
    return num(v);
}

std::string link_text(const ExpectVerdict &v) {
    if (!v.pair) return "";
    const RunPair &p = *v.pair;
    std::string s = "rank " + std::to_string(p.client) + " (" + p.client_node + ") -> rank " +
                    std::to_string(p.server) + " (" + p.server_node + ")";
    if (!v.rail.empty()) s += " @" + v.rail;
    return printable_text(s);
}

void judge_expectations(const Report &report, const VerdictVisitor &visit) {
    Judge(report).each(visit);
}

std::vector<ExpectVerdict> evaluate_expectations(const Report &report) {
    std::vector<ExpectVerdict> out;
    judge_expectations(report, [&out](const ExpectVerdict &v) { out.push_back(v); });
    return out;
}

std::string verdict_text(const ExpectVerdict &v) {
    std::string what = subject(v) + ": " + printable_text(v.metric);
    const std::string unit = v.unit.empty() ? "" : " " + v.unit;
    if (v.check == "link_fraction") {
        if (v.measured) what += " " + num(*v.measured) + unit;
        what += v.value ? " = " + num(*v.value) + " of " : " as a fraction of ";
        what += v.link ? link_rate_text(*v.link) : "the link rate";
    } else if (v.check == "min_ratio" || v.check == "max_ratio") {
        what += " ratio to the baseline";
        if (v.value)
            what += " " + num(*v.value) + " (" + num(*v.measured) + " vs " + num(*v.baseline) +
                    unit + ")";
    } else if (v.value) {
        what += " " + num(*v.value) + unit;
        if (one_way(v)) what += " one-way (round trip " + num(2 * *v.value) + unit + ")";
    }
    what += std::string(", expected ") + bound_sign(v.check) + " " + num(v.bound);
    if (v.outcome == Outcome::Unknown || v.outcome == Outcome::NotRun)
        what += ": " + printable_text(v.reason);
    if (v.outcome == Outcome::Unknown && !v.hint.empty()) what += "; " + printable_text(v.hint);
    return what;
}

} // namespace cmdbench
