// A matrix's verdicts per link, node and rail (matrix_verdicts.hpp).
#include "cmdbench/report/matrix/matrix_verdicts.hpp"

#include "cmdbench/control/printable_text.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

namespace cmdbench {
namespace {

using Json = nlohmann::ordered_json;

// Which outcome decides a link: a fail over anything, then what could not
// be judged, then what did not run.
int severity(Outcome o) {
    switch (o) {
    case Outcome::Fail:
        return 3;
    case Outcome::Unknown:
        return 2;
    case Outcome::NotRun:
        return 1;
    case Outcome::Pass:
        return 0;
    }
    return 0;
}

bool lower_bound(const std::string &check) {
    return check == "min" || check == "min_ratio" || check == "link_fraction";
}

// How many times beyond its bound a failed verdict is: the worst link is
// the one furthest from what was expected, whatever the check.
double miss_of(const ExpectVerdict &v) {
    if (v.outcome != Outcome::Fail || !v.value) return 0;
    const double x = *v.value, b = v.bound;
    if (x <= 0 || b <= 0) return std::numeric_limits<double>::max();
    return lower_bound(v.check) ? b / x : x / b;
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Worst first: more failing links, a larger share of them, then the worse
// median (when every node fails a bound set too tight, the one that stands
// out still leads), then what could not be judged, then what did not run;
// ties by name.
void sort_tallies(std::vector<VerdictTally> &tallies, const std::string &check) {
    const bool lower = lower_bound(check); // a lower median is worse
    auto badness = [&](const VerdictTally &t) {
        if (!t.median) return -std::numeric_limits<double>::infinity();
        return lower ? -*t.median : *t.median;
    };
    auto key = [&](const VerdictTally &t) {
        const double share = t.links ? double(t.count[int(Outcome::Fail)]) / double(t.links) : 0;
        return std::make_tuple(t.count[int(Outcome::Fail)], share, badness(t),
                               t.count[int(Outcome::Unknown)], t.count[int(Outcome::NotRun)]);
    };
    std::stable_sort(tallies.begin(), tallies.end(),
                     [&](const VerdictTally &a, const VerdictTally &b) {
                         const auto ka = key(a), kb = key(b);
                         if (ka != kb) return ka > kb;
                         return a.name < b.name;
                     });
}

class Gather {
  public:
    Gather(const Report &report, const std::vector<ExpectVerdict> &verdicts)
        : report_(report), verdicts_(verdicts) {}

    MatrixVerdicts all() {
        choose_headline();
        for (const ExpectVerdict &v : verdicts_)
            if (v.pair) add(v);
        finish_links();
        tally();
        return std::move(m_);
    }

  private:
    // link_fraction when one was judged with a value, else the first check
    // that has values, else the first check.
    void choose_headline() {
        int best = -1;
        for (const ExpectVerdict &v : verdicts_) {
            if (!v.pair) continue;
            const int rank = v.value ? (v.check == "link_fraction" ? 2 : 1) : 0;
            if (rank <= best) continue;
            best = rank;
            m_.metric = v.metric;
            m_.check = v.check;
            m_.unit = v.unit;
        }
    }

    void add(const ExpectVerdict &v) {
        ++m_.expectations[int(v.outcome)];
        const auto key = std::make_tuple(v.pair->client, v.pair->server, v.rail);
        auto [it, fresh] = index_.emplace(key, m_.links.size());
        if (fresh) {
            LinkVerdict l;
            l.pair = *v.pair;
            l.rail = v.rail;
            l.worst = v;
            l.outcome = v.outcome;
            l.miss = miss_of(v);
            m_.links.push_back(std::move(l));
            values_.emplace_back();
        }
        LinkVerdict &l = m_.links[it->second];
        ++l.verdicts;
        if (v.metric == m_.metric && v.check == m_.check && v.value && v.unit == m_.unit)
            values_[it->second].push_back(*v.value);
        const double miss = miss_of(v);
        if (severity(v.outcome) > severity(l.outcome) ||
            (v.outcome == Outcome::Fail && l.outcome == Outcome::Fail && miss > l.miss)) {
            l.outcome = v.outcome;
            l.worst = v;
            l.miss = miss;
        }
    }

    void finish_links() {
        for (size_t i = 0; i < m_.links.size(); ++i)
            if (!values_[i].empty()) m_.links[i].headline = median_of(values_[i]);
        std::stable_sort(m_.links.begin(), m_.links.end(),
                         [](const LinkVerdict &a, const LinkVerdict &b) {
                             const int sa = severity(a.outcome), sb = severity(b.outcome);
                             if (sa != sb) return sa > sb;
                             return a.miss > b.miss;
                         });
    }

    void tally() {
        std::map<std::string, VerdictTally> nodes, rails;
        std::map<std::string, std::vector<double>> node_values, rail_values;
        bool any_rail = false;
        for (const LinkVerdict &l : m_.links) {
            ++m_.count[int(l.outcome)];
            std::set<std::string> ends = {l.pair.client_node, l.pair.server_node};
            for (const std::string &n : ends) {
                count(nodes[n], l);
                if (l.headline) node_values[n].push_back(*l.headline);
            }
            any_rail = any_rail || !l.rail.empty();
            const std::string rail = l.rail.empty() ? "(no rail)" : l.rail;
            count(rails[rail], l);
            if (l.headline) rail_values[rail].push_back(*l.headline);
        }
        if (report_.matrix)
            for (const MatrixRank &r : report_.matrix->ranks)
                if (auto it = nodes.find(r.node); it != nodes.end())
                    it->second.ranks.push_back(r.rank);
        for (auto &[name, t] : nodes) {
            t.name = name;
            if (!node_values[name].empty()) t.median = median_of(node_values[name]);
            m_.nodes.push_back(std::move(t));
        }
        if (any_rail)
            for (auto &[name, t] : rails) {
                t.name = name;
                if (!rail_values[name].empty()) t.median = median_of(rail_values[name]);
                m_.rails.push_back(std::move(t));
            }
        sort_tallies(m_.nodes, m_.check);
        sort_tallies(m_.rails, m_.check);
    }

    static void count(VerdictTally &t, const LinkVerdict &l) {
        ++t.links;
        ++t.count[int(l.outcome)];
    }

    const Report &report_;
    const std::vector<ExpectVerdict> &verdicts_;
    MatrixVerdicts m_;
    std::map<std::tuple<int, int, std::string>, size_t> index_;
    std::vector<std::vector<double>> values_; // per link: its headline values
};

// "median 0.62 of line rate", "median latency_p99 14.2 us one-way".
std::string median_text(const MatrixVerdicts &m, double value) {
    const std::string x = verdict_number(value);
    if (m.check == "link_fraction") return "median " + x + " of line rate";
    if (m.check == "min_ratio" || m.check == "max_ratio")
        return "median " + m.metric + " " + x + " of the baseline's";
    std::string s = "median " + m.metric + " " + x + (m.unit.empty() ? "" : " " + m.unit);
    if (m.metric == "latency_p50" || m.metric == "latency_p99") s += " one-way";
    return s;
}

std::string ranks_text(const std::vector<int> &ranks) {
    if (ranks.empty()) return "";
    std::string s = ranks.size() == 1 ? " (rank " : " (ranks ";
    constexpr size_t kShown = 4;
    for (size_t i = 0; i < ranks.size() && i < kShown; ++i)
        s += (i ? ", " : "") + std::to_string(ranks[i]);
    if (ranks.size() > kShown) s += ", ... " + std::to_string(ranks.size()) + " in all";
    return s + ")";
}

// ", 2 UNKNOWN, 1 NOT RUN": the outcomes besides FAIL and PASS, when any.
std::string others_text(const size_t count[4]) {
    std::string s;
    if (count[int(Outcome::Unknown)])
        s += ", " + std::to_string(count[int(Outcome::Unknown)]) + " UNKNOWN";
    if (count[int(Outcome::NotRun)])
        s += ", " + std::to_string(count[int(Outcome::NotRun)]) + " NOT RUN";
    return s;
}

Json counts_json(const size_t count[4]) {
    return {{"pass", count[int(Outcome::Pass)]},
            {"fail", count[int(Outcome::Fail)]},
            {"unknown", count[int(Outcome::Unknown)]},
            {"not_run", count[int(Outcome::NotRun)]}};
}

Json tally_json(const MatrixVerdicts &m, const VerdictTally &t, const char *kind) {
    Json j = {{kind, t.name}};
    if (std::string(kind) == "node") j["ranks"] = t.ranks;
    j["links"] = t.links;
    j["pass"] = t.count[int(Outcome::Pass)];
    j["fail"] = t.count[int(Outcome::Fail)];
    j["unknown"] = t.count[int(Outcome::Unknown)];
    j["not_run"] = t.count[int(Outcome::NotRun)];
    j["median"] = t.median ? Json(*t.median) : Json(nullptr);
    j["text"] = tally_text(m, t);
    return j;
}

} // namespace

MatrixVerdicts matrix_verdicts(const Report &report, const std::vector<ExpectVerdict> &verdicts) {
    return Gather(report, verdicts).all();
}

std::string tally_text(const MatrixVerdicts &m, const VerdictTally &t) {
    std::string s = printable_text(t.name) + ranks_text(t.ranks) + ": " +
                    std::to_string(t.count[int(Outcome::Fail)]) + " of " + std::to_string(t.links) +
                    (t.links == 1 ? " link" : " links") + " FAIL" + others_text(t.count);
    if (t.median) s += ", " + median_text(m, *t.median);
    return s;
}

std::string matrix_verdict_line(const MatrixVerdicts &m) {
    const size_t links = m.links.size();
    const size_t failed = m.count[int(Outcome::Fail)];
    size_t expectations = 0;
    for (size_t c : m.expectations)
        expectations += c;
    std::string s = std::to_string(failed) + " of " + std::to_string(links) +
                    (links == 1 ? " link" : " links") + " FAIL" + others_text(m.count) + " (" +
                    std::to_string(m.expectations[int(Outcome::Fail)]) + " of " +
                    std::to_string(expectations) + " expectations failed)";
    // The worst few by name: the links are sorted worst first.
    constexpr size_t kNamed = 3;
    size_t named = 0;
    for (const LinkVerdict &l : m.links) {
        if (l.outcome == Outcome::Pass || named == kNamed) break;
        s += (named ? "; " : failed ? "; worst: " : "; first: ") + verdict_text(l.worst);
        ++named;
    }
    size_t bad = links - m.count[int(Outcome::Pass)];
    if (bad > named) s += "; and " + std::to_string(bad - named) + " more";
    return s;
}

Json matrix_verdicts_json(const MatrixVerdicts &m) {
    Json rails = Json::array(), nodes = Json::array(), links = Json::array();
    for (const VerdictTally &t : m.rails)
        rails.push_back(tally_json(m, t, "rail"));
    for (const VerdictTally &t : m.nodes)
        nodes.push_back(tally_json(m, t, "node"));
    for (const LinkVerdict &l : m.links) {
        if (l.outcome == Outcome::Pass) break; // worst first: the rest pass
        links.push_back({{"client", l.pair.client},
                         {"server", l.pair.server},
                         {"client_node", l.pair.client_node},
                         {"server_node", l.pair.server_node},
                         {"rail", l.rail.empty() ? Json(nullptr) : Json(l.rail)},
                         {"verdict", to_string(l.outcome)},
                         {"verdicts", l.verdicts},
                         {"text", verdict_text(l.worst)}});
    }
    Json count = counts_json(m.count);
    count["total"] = m.links.size();
    return {{"headline", {{"metric", m.metric}, {"check", m.check}, {"unit", m.unit}}},
            {"links", count},
            {"expectations", counts_json(m.expectations)},
            {"rails", rails},
            {"nodes", nodes},
            {"problem_links", links},
            {"summary", matrix_verdict_line(m)}};
}

} // namespace cmdbench
