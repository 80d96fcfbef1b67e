// Verdicts written: the summary, the text section and JSON (verdict.hpp).
#include "cmdbench/report/verdict.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

namespace cmdbench {
namespace {

using Json = nlohmann::ordered_json;

// The first few by name: enough to act on, short enough to read.
constexpr size_t kNamed = 5;

} // namespace

VerdictStream verdicts_of(const std::vector<const Report *> &reports) {
    return [reports](const VerdictVisitor &visit) {
        for (const Report *r : reports)
            if (r) judge_expectations(*r, visit);
    };
}

VerdictStream verdicts_of(const std::vector<ExpectVerdict> &verdicts) {
    return [&verdicts](const VerdictVisitor &visit) {
        for (const ExpectVerdict &v : verdicts)
            visit(v);
    };
}

void VerdictTotals::add(const ExpectVerdict &v) {
    const int o = int(v.outcome);
    // Only the few the summary names are made text.
    if (v.outcome != Outcome::Pass && first_[o].size() < kNamed)
        first_[o].push_back(verdict_text(v));
    ++counts_[o];
    ++total_;
}

std::string VerdictTotals::summary() const {
    const size_t failed = count(Outcome::Fail), unknown = count(Outcome::Unknown),
                 not_run = count(Outcome::NotRun);
    const std::string total = std::to_string(total_);
    if (failed + unknown + not_run == 0) return "all " + total + " expectations held";
    std::string line;
    if (failed) line = std::to_string(failed) + " of " + total + " expectations failed";
    if (unknown)
        line += (line.empty() ? std::to_string(unknown) + " of " + total + " expectations"
                              : ", " + std::to_string(unknown)) +
                " could not be judged";
    if (not_run)
        line += (line.empty() ? std::to_string(not_run) + " of " + total + " expectations"
                              : ", " + std::to_string(not_run)) +
                " not run";
    // Failures first, then what could not be judged, then what did not run.
    size_t named = 0;
    for (Outcome o : {Outcome::Fail, Outcome::Unknown, Outcome::NotRun})
        for (const std::string &text : first_[int(o)])
            if (named < kNamed) line += (named++ ? "; " : ": ") + text;
    if (const size_t more = failed + unknown + not_run - named; more)
        line += "; and " + std::to_string(more) + " more";
    return line;
}

VerdictTotals total_verdicts(const VerdictStream &verdicts) {
    VerdictTotals t;
    if (verdicts) verdicts([&t](const ExpectVerdict &v) { t.add(v); });
    return t;
}

bool all_held(const std::vector<ExpectVerdict> &verdicts) {
    return std::all_of(verdicts.begin(), verdicts.end(),
                       [](const ExpectVerdict &v) { return v.outcome == Outcome::Pass; });
}

std::string verdict_summary(const std::vector<ExpectVerdict> &verdicts) {
    return total_verdicts(verdicts_of(verdicts)).summary();
}

void write_verdicts_table(std::ostream &out, const VerdictStream &verdicts, const char *lead) {
    VerdictTotals t;
    if (!verdicts) return;
    verdicts([&](const ExpectVerdict &v) {
        if (t.total() == 0) out << lead << "expectations:\n";
        t.add(v);
        std::string tag = outcome_label(v.outcome);
        tag.resize(7, ' '); // as wide as the widest, UNKNOWN and NOT RUN
        out << "  " << tag << " " << verdict_text(v) << '\n';
    });
    if (t.total()) out << t.summary() << '\n';
}

void write_verdicts_table(std::ostream &out, const std::vector<ExpectVerdict> &verdicts) {
    write_verdicts_table(out, verdicts_of(verdicts));
}

Json verdict_json(const ExpectVerdict &v) {
    auto opt = [](const std::optional<double> &d) { return d ? Json(*d) : Json(nullptr); };
    Json j = {{"run", v.run},
              {"repeat", v.repeat},
              {"group", v.group},
              {"variant", v.variant},
              {"row", v.row.empty() ? Json(nullptr) : Json(v.row)},
              {"metric", v.metric},
              {"unit", v.unit},
              {"check", v.check},
              {"bound", v.bound},
              {"value", opt(v.value)},
              {"verdict", to_string(v.outcome)}};
    if (v.pair) {
        j["pair"] = {{"client", v.pair->client},
                     {"server", v.pair->server},
                     {"client_node", v.pair->client_node},
                     {"server_node", v.pair->server_node}};
        j["rail"] = v.rail.empty() ? Json(nullptr) : Json(v.rail);
    }
    if (v.check == "link_fraction") {
        j["measured"] = opt(v.measured);
        j["link"] = v.link ? Json{{"name", v.link->name},
                                  {"rate", v.link->text},
                                  {"rate_bps", v.link->bits_per_second}}
                           : Json(nullptr);
    }
    if (v.check == "min_ratio" || v.check == "max_ratio") {
        j["measured"] = opt(v.measured);
        j["baseline"] = opt(v.baseline);
    }
    j["reason"] = v.reason;
    if (!v.hint.empty()) j["hint"] = v.hint;
    j["text"] = verdict_text(v);
    return j;
}

Json verdicts_json(const VerdictTotals &t) {
    return {{"total", t.total()},
            {"passed", t.count(Outcome::Pass)},
            {"failed", t.count(Outcome::Fail)},
            {"unknown", t.count(Outcome::Unknown)},
            {"not_run", t.count(Outcome::NotRun)},
            {"all_held", t.all_held()},
            {"summary", t.summary()},
            {"verdicts", Json::array()}};
}

Json verdicts_json(const std::vector<ExpectVerdict> &verdicts, bool with_list) {
    Json j = verdicts_json(total_verdicts(verdicts_of(verdicts)));
    if (with_list)
        for (const auto &v : verdicts)
            j["verdicts"].push_back(verdict_json(v));
    return j;
}

Json expectations_json(const Expectations &e) {
    Json j = Json::object();
    if (e.link_fraction) j["link_fraction"] = *e.link_fraction;
    for (const auto &[metric, b] : e.metrics) {
        Json m = Json::object();
        if (b.min) m["min"] = *b.min;
        if (b.max) m["max"] = *b.max;
        if (b.min_ratio) m["min_ratio"] = *b.min_ratio;
        if (b.max_ratio) m["max_ratio"] = *b.max_ratio;
        j[metric] = m;
    }
    return j;
}

} // namespace cmdbench
