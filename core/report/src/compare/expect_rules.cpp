// The rules of an `expect` table (expect_rules.hpp).
#include "cmdbench/report/expect_rules.hpp"

#include "cmdbench/control/printable_text.hpp"
#include "cmdbench/report/run_counters.hpp"

#include <charconv>
#include <cmath>
#include <iterator>

namespace cmdbench {
namespace {

// What is wrong, and where; read_expectations turns it into its failure.
struct Refused {
    std::string message;
};

[[noreturn]] void refuse(const std::string &at, const std::string &what) {
    throw Refused{at + ": " + what};
}

// Shortest text that reads back as the same double: "0.5", "5", "1e+20".
std::string number_text(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

const char *const kBoundList = "(keys: min, max, min_ratio, max_ratio)";

double number_of(const ExpectEntry &e, const std::string &label) {
    if (!e.number) refuse(e.value_at, label + " expects a number, got " + e.kind);
    if (!std::isfinite(*e.number)) refuse(e.value_at, label + " must be a finite number");
    return *e.number;
}

// link_fraction and the ratio bounds: a fraction or ratio of 0 or below
// would hold for anything (or nothing).
double positive_of(const ExpectEntry &e, const std::string &label) {
    const double v = number_of(e, label);
    if (v <= 0) refuse(e.value_at, label + " must be above 0, got " + number_text(v));
    return v;
}

// A name the verdicts print and match against rows' metrics: not empty,
// and no control characters (a results file is anyone's text).
void check_name(const ExpectEntry &e) {
    if (e.key.empty())
        refuse(e.key_at, "an empty key in 'expect' (name a metric, e.g. latency_p99, or "
                         "link_fraction)");
    if (printable_text(e.key) != e.key)
        refuse(e.key_at, "the key '" + printable_text(e.key) +
                             "' in 'expect' has control characters or is not UTF-8");
}

void check_order(const ExpectEntry &e, const std::string &label, const MetricBounds &b) {
    if (b.min && b.max && *b.min > *b.max)
        refuse(e.value_at,
               label + ": min " + number_text(*b.min) + " is above max " + number_text(*b.max));
    if (b.min_ratio && b.max_ratio && *b.min_ratio > *b.max_ratio)
        refuse(e.value_at, label + ": min_ratio " + number_text(*b.min_ratio) +
                               " is above max_ratio " + number_text(*b.max_ratio));
}

MetricBounds bounds_of(const ExpectEntry &e, const ExpectAdvice &advice, std::string &ratio_at) {
    const std::string label = "'expect." + printable_text(e.key) + "'";
    if (!e.is_table)
        refuse(e.value_at, label + " expects a table of bounds, e.g. { max = 20 } " + kBoundList +
                               ", got " + e.kind);
    if (e.table.empty()) refuse(e.value_at, label + " has no bound " + kBoundList);
    MetricBounds b;
    for (const ExpectEntry &bound : e.table) {
        const std::string &k = bound.key;
        const std::string what = "'expect." + printable_text(e.key) + "." + printable_text(k) + "'";
        if (k == "min" || k == "max") {
            (k == "min" ? b.min : b.max) = number_of(bound, what);
        } else if (k == "min_ratio" || k == "max_ratio") {
            (k == "min_ratio" ? b.min_ratio : b.max_ratio) = positive_of(bound, what);
            if (ratio_at.empty()) ratio_at = bound.key_at;
        } else {
            const std::set<std::string> known(std::begin(kBoundKeys), std::end(kBoundKeys));
            refuse(bound.key_at, "unknown bound '" + printable_text(k) + "' in " + label + " " +
                                     kBoundList + (advice.suggest ? advice.suggest(k, known) : ""));
        }
    }
    check_order(e, label, b);
    return b;
}

// retransmits, counter_errors: a count over the whole run, on both sides,
// which has no baseline to be a ratio of.
MetricBounds counter_bounds_of(const ExpectEntry &e, const ExpectAdvice &advice) {
    std::string ratio_at;
    const MetricBounds b = bounds_of(e, advice, ratio_at);
    if (!ratio_at.empty())
        refuse(ratio_at, "'expect." + e.key +
                             "' takes min and max only: a count of counters has no ratio to "
                             "the baseline");
    return b;
}

ReadExpectations read_table(const ExpectEntry &value, const ExpectAdvice &advice) {
    if (!value.is_table)
        refuse(value.value_at,
               "'expect' expects a table, e.g. expect = { link_fraction = 0.9 }, got " +
                   value.kind);
    if (value.table.size() > kMaxExpectKeys)
        refuse(value.value_at, "'expect' has " + std::to_string(value.table.size()) +
                                   " keys: more than the " + std::to_string(kMaxExpectKeys) +
                                   " one run's expectations may have");
    ReadExpectations out;
    for (const ExpectEntry &e : value.table) {
        check_name(e);
        if (e.key == "link_fraction") {
            out.expect.link_fraction = positive_of(e, "'expect.link_fraction'");
            continue;
        }
        if (is_counter_expectation(e.key)) {
            out.expect.metrics.emplace_back(e.key, counter_bounds_of(e, advice));
            continue;
        }
        if (advice.refuse_metric)
            if (const std::string why = advice.refuse_metric(e.key); !why.empty())
                refuse(e.key_at, why);
        out.expect.metrics.emplace_back(e.key, bounds_of(e, advice, out.ratio_at));
    }
    return out;
}

} // namespace

Expected<ReadExpectations> read_expectations(const ExpectEntry &value, const ExpectAdvice &advice) {
    try {
        return read_table(value, advice);
    } catch (const Refused &r) {
        return unexpected(r.message);
    }
}

} // namespace cmdbench
